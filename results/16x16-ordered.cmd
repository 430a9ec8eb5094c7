htnsat compare -f sudoku/sets/16x16/hard-10.txt -f sudoku/sets/16x16/course-100.txt --style ordered --engine progression
