htnsat ipc --stage plan --engine progression --optimize --filter total-order
