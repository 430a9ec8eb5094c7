#!/usr/bin/env bash
# Prints the machine a run is made on ("2 cores, <CPU model>"): its cores,
# not the CPUs this process may use (a run under taskset says so in its
# command). The run scripts write it beside each table (NAME.machine) when
# the table is measured, so a later splice on another machine or under
# taskset does not relabel old figures.
set -euo pipefail
echo "$(nproc --all) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
