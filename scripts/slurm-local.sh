#!/usr/bin/env bash
# Sets up and starts a one-node Slurm cluster on this Debian machine, for
# trying "htnsat ipc --slurm" (and for its end-to-end test, make
# e2e-slurm): installs slurm-wlm and munge if missing, makes a munge key,
# writes /etc/slurm/slurm.conf for this host's cores and memory (one
# partition, "local"; memory limits enforced by polling, jobs remembered
# for an hour), and starts munged, slurmctld and slurmd. Needs root (or
# sudo). Idempotent: a cluster already up is left as it is.
#
# Usage: scripts/slurm-local.sh [stop]
set -euo pipefail

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

if [ "${1:-}" = stop ]; then
	$SUDO pkill -x slurmd || true
	$SUDO pkill -x slurmctld || true
	$SUDO pkill -x munged || true
	exit 0
fi

if sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mix|alloc'; then
	echo "slurm-local: a cluster is up already" >&2
	exit 0
fi

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	$SUDO apt-get update -qq
	$SUDO apt-get install -y -qq slurm-wlm munge >/dev/null
fi

host=$(hostname -s)
cpus=$(nproc)
# what slurmd sees, less 512 MiB for the system
mem=$(( $(free -m | awk '/^Mem:/ {print $2}') - 512 ))

# munge: a key, then the daemon
if [ ! -s /etc/munge/munge.key ]; then
	$SUDO sh -c 'dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null'
fi
$SUDO chown munge:munge /etc/munge/munge.key
$SUDO chmod 400 /etc/munge/munge.key
$SUDO mkdir -p /run/munge /var/log/munge /var/lib/munge
$SUDO chown munge:munge /run/munge /var/log/munge /var/lib/munge
pgrep -x munged >/dev/null || $SUDO -u munge munged --force 2>/dev/null || $SUDO runuser -u munge -- munged --force

$SUDO mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
$SUDO tee /etc/slurm/slurm.conf >/dev/null <<EOF
# written by htnsat's scripts/slurm-local.sh: one node, this machine
ClusterName=local
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
# memory: the resident memory of each job polled every second, a job over
# its --mem killed (state OUT_OF_MEMORY)
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=1
JobAcctGatherParams=OverMemoryKill
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=/var/log/slurm/jobcomp.log
# finished jobs stay known to scontrol for an hour: what htnsat reads the
# state of a killed run from when there is no accounting database
MinJobAge=3600
KillWait=5
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

pgrep -x slurmctld >/dev/null || $SUDO slurmctld
pgrep -x slurmd >/dev/null || $SUDO slurmd

for _ in $(seq 1 30); do
	if sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mix|alloc'; then
		echo "slurm-local: node $host up ($cpus CPUs, $mem MiB), partition local" >&2
		exit 0
	fi
	sleep 1
done
echo "slurm-local: the node did not come up; see /var/log/slurm/" >&2
sinfo >&2 || true
exit 1
