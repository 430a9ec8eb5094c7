htnsat compare -f ../shared/data/sudoku/9x9/top95.txt -f ../shared/data/sudoku/9x9/hardest.txt
