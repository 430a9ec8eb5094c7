htnsat compare 
