htnsat ipc --stage plan --engine progression --optimize --filter total-order --first 4 --timeout 20s --quality results/peers/pandapi-greedy-p04.csv --quality results/peers/pandapi-astar-p04.csv
