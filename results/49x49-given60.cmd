htnsat compare -f sudoku/sets/49x49/given60.txt --timeout 20s
