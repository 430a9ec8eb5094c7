htnsat compare -f ../shared/data/sudoku/16x16/hard-10.txt -f ../shared/data/sudoku/16x16/course-100.txt --style ordered --engines progression
