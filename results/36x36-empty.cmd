taskset -c 1 htnsat compare -f sudoku/sets/36x36/empty.txt --timeout 60s
