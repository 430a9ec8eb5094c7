htnsat compare -f sudoku/sets/9x9/hardest.txt --style ordered --process
