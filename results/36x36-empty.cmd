htnsat compare -f sudoku/sets/36x36/empty.txt --timeout 60s
