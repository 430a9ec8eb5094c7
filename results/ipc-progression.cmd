htnsat ipc --stage plan --engine progression
