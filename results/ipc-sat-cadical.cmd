htnsat-cadical ipc --stage plan --engine sat --filter total-order
