"""The systemd half of scripts/check_deploy.py: the units of deploy/systemd/ and their
environment file, then `systemd-analyze verify` on the units."""

import os
import re
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

UNITS = {
    "vendorwatch-server.service": ["start"],
    "vendorwatch-worker@.service": ["start", "--worker"],
    "vendorwatch-scheduler.service": ["scheduler"],
}


def unit_entries(path):
    """[(section, key, value)]: systemd allows a key more than once, so no configparser."""
    section, entries, pending = None, [], ""
    for line in path.read_text().splitlines():
        line = pending + line.strip()
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
        elif "=" in line:
            key, value = line.split("=", 1)
            entries.append((section, key.strip(), value.strip()))
    return entries


def env_example_vars(path):
    """{name: value}, None for a commented-out `#NAME=...` line (which keeps the default)."""
    values = {}
    for m in re.finditer(r"^(#?)([A-Z][A-Z0-9_]*)=(.*)$", path.read_text(), re.M):
        if m.group(1):
            values.setdefault(m.group(2), None)
        else:
            values[m.group(2)] = m.group(3)
    return values


def check_systemd(directory, config, check, check_names, stop_signals):
    env = env_example_vars(directory / "env.example")
    check_names("systemd/env.example", env, config)
    for name, args in UNITS.items():
        path = directory / name
        check(path.exists(), f"systemd: no {name}")
        if not path.exists():
            continue
        service = {}
        for section, key, value in unit_entries(path):
            if section == "Service":
                service.setdefault(key, []).append(value)

        def one(key):
            return (service.get(key) or [""])[-1]

        where = f"systemd/{name}"
        exec_start = shlex.split(one("ExecStart"))
        check(exec_start[1:] == args and exec_start[0].endswith("/vendorwatch-cli"),
              f"{where}: ExecStart {exec_start}, want vendorwatch-cli {' '.join(args)}")
        check(one("User") not in ("", "root", "0"), f"{where}: no dedicated User=")
        check("/etc/vendorwatch/env" in service.get("EnvironmentFile", []),
              f"{where}: no EnvironmentFile=/etc/vendorwatch/env")
        check("LOCO_ENV=production" in " ".join(service.get("Environment", [])),
              f"{where}: LOCO_ENV=production not set")
        check(one("Restart") == "on-failure", f"{where}: Restart= is not on-failure")
        signal = stop_signals[" ".join(args)]
        check(one("KillSignal") == signal, f"{where}: KillSignal= should be {signal}")
        check(bool(one("TimeoutStopSec")), f"{where}: no TimeoutStopSec=")
        for key, want in (("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"),
                          ("PrivateTmp", "yes")):
            check(one(key) == want, f"{where}: {key}= is not {want}")
        writable = " ".join(service.get("ReadWritePaths", [])).split()
        check(bool(writable), f"{where}: no ReadWritePaths= for the data directory")
        for var in ("STORAGE_DIR", "MAIL_OUTBOX_DIR"):
            value = env.get(var) or ""
            check(any(value.startswith(w.rstrip("/") + "/") for w in writable),
                  f"{where}: env.example's {var}={value} is not under ReadWritePaths= {writable}")
    verify_units(directory, check)


def verify_units(directory, check):
    """`systemd-analyze verify` against a scratch root holding the units, the system's own units
    and a stand-in for each Exec binary; any warning counts as a failure."""
    tool = shutil.which("systemd-analyze")
    if tool is None:
        if os.environ.get("CI") == "true":
            check(False, "systemd-analyze is not installed, and CI=true requires it")
        else:
            print("SKIPPED: systemd-analyze is not installed, so systemd does not verify the units.")
        return
    system_units = next((p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system"))
                         if p.is_dir()), None)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        if system_units:
            shutil.copytree(system_units, root / "usr/lib/systemd/system", symlinks=True)
        units = root / "etc/systemd/system"
        units.mkdir(parents=True)
        for name in UNITS:
            source = directory / name
            if not source.exists():
                continue
            shutil.copy(source, units / name)
            for _, key, value in unit_entries(source):
                if key.startswith("Exec"):
                    binary = root / shlex.split(value)[0].lstrip("-@:+!").lstrip("/")
                    binary.parent.mkdir(parents=True, exist_ok=True)
                    binary.write_text("#!/bin/sh\n")
                    binary.chmod(0o755)
        for name in UNITS:
            unit = name.replace("@.", "@1.")
            result = subprocess.run([tool, "verify", f"--root={root}", unit],
                                    capture_output=True, text=True, check=False)
            output = (result.stdout + result.stderr).strip().replace(scratch, "")
            check(result.returncode == 0 and not output, f"systemd-analyze verify {unit}:\n{output}")
