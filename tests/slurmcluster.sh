# tests/slurmcluster.sh: a one-node Slurm cluster of its own, for
# tests/slurm.test and dev/bench-slurm; sourced, with C set to an empty
# directory for it.  As root: munged with its own key and socket,
# slurmctld and slurmd on ports of their own, node n1 (this machine,
# 8 CPUs) with four GPUs that are device files of no GPU
# ($C/dev/nvidia[0-3], made with mknod), SLURM_CONF for the daemons and
# the clients, accounting none (no slurmdbd), MinJobAge 600 s.
#
#	cluster_start || echo "no cluster: $why"
#	...
#	cluster_stop

daemons=()

# cluster_stop: cancel every job, wait for them to go, stop the daemons.
cluster_stop() {
	local pid i
	if [ ${#daemons[@]} -gt 0 ]; then
		scancel --quiet --full $(squeue -h -o %A 2>/dev/null) 2>/dev/null || :
		for i in $(seq 50); do
			[ -z "$(squeue -h -o %A 2>/dev/null)" ] && break
			sleep 0.2
		done
	fi
	for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null || :; done
	for pid in "${daemons[@]}"; do
		for i in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$pid" 2>/dev/null || :
	done
	daemons=()
}

# cluster_start: start munged, slurmctld and slurmd; set why and fail if
# they do not make node n1 idle within 15 s.
cluster_start() {
	local port i try
	mkdir -p "$C/dev" "$C/state" "$C/spool" "$C/log"
	for i in 0 1 2 3; do
		mknod "$C/dev/nvidia$i" c 1 3 2>/dev/null || {
			why="mknod cannot make the GPUs' device files"
			return 1
		}
	done
	head -c 1024 /dev/urandom >"$C/munge.key"
	chmod 600 "$C/munge.key"
	munged -F -f --key-file="$C/munge.key" --socket="$C/munge.sock" \
	    --pid-file="$C/munged.pid" --seed-file="$C/munge.seed" \
	    --log-file="$C/log/munged.log" >/dev/null 2>&1 &
	daemons+=($!)
	for i in $(seq 50); do [ -S "$C/munge.sock" ] && break; sleep 0.1; done
	echo "Name=gpu File=$C/dev/nvidia[0-3]" >"$C/gres.conf"
	export SLURM_CONF=$C/slurm.conf
	for try in 1 2 3; do
		port=$((20000 + RANDOM % 40000))
		cat >"$C/slurm.conf" <<-EOF
		ClusterName=h3test
		SlurmctldHost=$(hostname -s)(127.0.0.1)
		SlurmctldPort=$port
		SlurmdPort=$((port + 1))
		SlurmUser=root
		AuthType=auth/munge
		AuthInfo=socket=$C/munge.sock
		CredType=cred/munge
		StateSaveLocation=$C/state
		SlurmdSpoolDir=$C/spool
		SlurmctldPidFile=$C/slurmctld.pid
		SlurmdPidFile=$C/slurmd.pid
		SlurmctldLogFile=$C/log/slurmctld.log
		SlurmdLogFile=$C/log/slurmd.log
		ProctrackType=proctrack/linuxproc
		TaskPlugin=task/none
		SelectType=select/cons_tres
		SelectTypeParameters=CR_Core
		GresTypes=gpu
		MpiDefault=none
		SwitchType=switch/none
		JobAcctGatherType=jobacct_gather/none
		AccountingStorageType=accounting_storage/none
		SlurmdParameters=config_overrides
		ReturnToService=2
		KillWait=2
		MinJobAge=600
		NodeName=n1 NodeHostname=$(hostname -s) NodeAddr=127.0.0.1 CPUs=8 Gres=gpu:4 State=UNKNOWN
		PartitionName=debug Nodes=n1 Default=YES MaxTime=INFINITE State=UP
		EOF
		slurmctld -D -i -f "$C/slurm.conf" >"$C/log/slurmctld.out" 2>&1 &
		daemons+=($!)
		slurmd -D -N n1 -f "$C/slurm.conf" >"$C/log/slurmd.out" 2>&1 &
		daemons+=($!)
		for i in $(seq 150); do
			[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && return 0
			sleep 0.1
		done
		kill "${daemons[1]}" "${daemons[2]}" 2>/dev/null || :
		wait "${daemons[1]}" "${daemons[2]}" 2>/dev/null || :
		daemons=("${daemons[0]}")
	done
	why="node n1 did not come up: $(tail -n 1 "$C/log/slurmctld.log" 2>/dev/null)"
	return 1
}

