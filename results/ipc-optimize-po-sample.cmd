htnsat ipc --stage plan --engine progression --optimize --filter partial-order --every 4
