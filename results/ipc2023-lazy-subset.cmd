htnsat-cadical ipc ../shared/data/ipc2023 --stage plan --engine lazy --pin --jobs 2 --timeout 6s --filter total-order --from results/ipc2023-auto.csv --over 2s
