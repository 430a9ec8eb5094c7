htnsat compare -f sudoku/sets/9x9/magictour-top1465.txt --style ordered --engine progression
