htnsat ipc --stage plan --engine progression --from results/ipc-ground.csv --status too-large
