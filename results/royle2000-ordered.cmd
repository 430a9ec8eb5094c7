htnsat compare -f ../shared/data/sudoku/9x9/royle-17-clue.txt --limit 2000 --style ordered --engines progression
