htnsat ipc --stage ground
