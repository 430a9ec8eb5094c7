htnsat compare -f sudoku/sets/36x36/given40.txt --timeout 20s
