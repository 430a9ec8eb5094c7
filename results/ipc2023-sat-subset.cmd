htnsat ipc ../shared/data/ipc2023 --stage plan --engine sat --pin --from results/ipc2023-progression.csv --over 15s
