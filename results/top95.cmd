htnsat compare -f sudoku/sets/9x9/top95.txt -f sudoku/sets/9x9/hardest.txt
