htnsat compare -f ../shared/data/sudoku/9x9/hardest.txt --style ordered --process
