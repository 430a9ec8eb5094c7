htnsat compare -f sudoku/sets/49x49/given50.txt --limit 3 --timeout 20s
