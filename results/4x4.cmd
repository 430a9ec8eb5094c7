htnsat compare -f ../shared/data/sudoku/4x4/course-100.txt
