htnsat compare -f ../shared/data/sudoku/9x9/course-100.txt
