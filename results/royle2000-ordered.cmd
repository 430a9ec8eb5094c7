htnsat compare -f sudoku/sets/9x9/royle-17-clue.txt --limit 2000 --style ordered --engine progression
