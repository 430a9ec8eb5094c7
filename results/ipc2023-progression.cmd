htnsat ipc ../shared/data/ipc2023 --stage plan --engine progression --pin
