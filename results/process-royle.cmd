htnsat compare -f sudoku/sets/9x9/royle-17-clue.txt --limit 20 --style ordered --process
