htnsat compare -f sudoku/sets/9x9/course-100.txt
