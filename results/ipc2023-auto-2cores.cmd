htnsat ipc ../shared/data/ipc2023 --stage plan --engine auto --every 8 --from results/ipc2023-auto.csv --over 15s
