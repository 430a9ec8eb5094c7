htnsat compare -f sudoku/sets/4x4/course-100.txt
