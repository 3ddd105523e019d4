"""Static checks of deploy/, which cannot be built or started here (no Docker daemon, no systemd
as init): the Dockerfile's stages, the compose file's services and variables, and (in
check_deploy_systemd.py) the systemd units and their environment file, each held to
config/production.yaml, the one list of the variables the app reads.

Run by scripts/check-deploy, with the virtualenv scripts/test makes (dockerfile-parse, PyYAML).
"""

import json
import re
import shlex
import sys
from fnmatch import fnmatch
from pathlib import Path

import yaml
from dockerfile_parse import DockerfileParser

from check_deploy_systemd import check_systemd

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
DOCKERFILE = DEPLOY / "Dockerfile"
# The three processes of the one image, by command: Loco's scheduler stops cleanly on SIGINT
# only, the server and the workers on SIGTERM.
COMMANDS = {"app": ["start"], "worker": ["start", "--worker"], "scheduler": ["scheduler"]}
STOP_SIGNALS = {"start": "SIGTERM", "start --worker": "SIGTERM", "scheduler": "SIGINT"}
# Read by Loco itself rather than by config/production.yaml.
LOCO_VARS = {"LOCO_ENV"}

passed, failed = 0, []


def check(ok, what):
    global passed
    if ok:
        passed += 1
    else:
        failed.append(what)


def config_vars():
    """Every variable config/production.yaml reads, with its default (None: required)."""
    text = (ROOT / "config" / "production.yaml").read_text()
    found = re.findall(r'get_env\(name="([A-Z0-9_]+)"(?:,\s*default="([^"]*)")?\)', text)
    return {name: default if f'name="{name}", default=' in text else None
            for name, default in found}


def check_names(where, names, known):
    """`names` are exactly the variables config/production.yaml reads (and Loco's own)."""
    unknown = sorted(set(names) - set(known) - LOCO_VARS)
    check(not unknown, f"{where}: not read by config/production.yaml: {', '.join(unknown)}")
    missing = sorted(set(known) - set(names))
    check(not missing, f"{where}: missing variables of config/production.yaml: {', '.join(missing)}")


def argv(value):
    """An exec-form (JSON) or shell-form command as a list."""
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        return shlex.split(value)


# --- Dockerfile -------------------------------------------------------------------------------

def dockerfile_stages():
    stages = []
    for ins in DockerfileParser(path=str(DOCKERFILE)).structure:
        if ins["instruction"] == "FROM":
            words = ins["value"].split()
            stages.append({"image": words[0], "ins": []})
        elif stages and ins["instruction"] != "COMMENT":
            stages[-1]["ins"].append((ins["instruction"], ins["value"]))
    return stages


def copy_sources(value):
    """The context paths a COPY or ADD takes (none when it copies from a stage)."""
    if "--from=" in value:
        return []
    return [w for w in value.split() if not w.startswith("--")][:-1]


def check_build_stages(stages):
    check(len(stages) >= 3,
          f"Dockerfile: {len(stages)} stages, want a frontend, a build and a runtime stage")
    runs = [(s["image"], v) for s in stages for (i, v) in s["ins"] if i == "RUN"]
    check(any(image.startswith("node:") and "npm install --no-save" in v for image, v in runs),
          "Dockerfile: no node stage running `npm install --no-save` (npm ci refuses the lock file)")
    check(not any(re.search(r"\bnpm ci\b", v) for _, v in runs),
          "Dockerfile: `npm ci` refuses the lock file")
    check(any("npm run build" in v for _, v in runs),
          "Dockerfile: the frontend is never built (`npm run build`)")
    check(any(re.search(r"cargo build\b.*--release", v) and "--bin vendorwatch-cli" in v
              for _, v in runs),
          "Dockerfile: no `cargo build --release --bin vendorwatch-cli`")


def check_runtime_stage(stage, config):
    """The last stage: what runs. Returns what compose.yaml must agree with."""
    def of(kind):
        return [v for i, v in stage["ins"] if i == kind]

    check(re.match(r"(debian:[a-z]+-slim|gcr\.io/distroless/cc)", stage["image"]) is not None,
          f"Dockerfile: runtime image {stage['image']} is not debian slim or distroless cc")
    user = (of("USER") or ["root"])[-1].split(":")[0]
    check(user not in ("root", "0"),
          "Dockerfile: the runtime stage runs as root (no USER, or USER root)")
    check(user.isdigit(), f"Dockerfile: USER {user} is not a fixed numeric UID")

    healthcheck = (of("HEALTHCHECK") or ["NONE"])[-1]
    has_healthcheck = "CMD" in healthcheck and healthcheck.strip().upper() != "NONE"
    check(has_healthcheck, "Dockerfile: the runtime stage has no HEALTHCHECK")
    # /_health is requested by the HEALTHCHECK itself or by a file it runs, copied in.
    texts = [healthcheck] + [
        (ROOT / src).read_text()
        for value in of("COPY") if Path(value.split()[-1]).name in healthcheck
        for src in copy_sources(value) if (ROOT / src).is_file()]
    check(any("/_health" in t for t in texts),
          "Dockerfile: the HEALTHCHECK does not request GET /_health")

    envs = DockerfileParser(path=str(DOCKERFILE)).envs
    check(envs.get("LOCO_ENV") == "production",
          "Dockerfile: the runtime stage does not set LOCO_ENV=production")
    unknown = sorted(set(envs) - set(config) - LOCO_VARS)
    check(not unknown, f"Dockerfile: ENV not read by config/production.yaml: {', '.join(unknown)}")
    port = envs.get("PORT", config.get("PORT"))
    exposed = [p.split("/")[0] for p in " ".join(of("EXPOSE")).split()]
    check(port in exposed, f"Dockerfile: EXPOSE {exposed} lacks the port {port}")
    volumes = [v for value in of("VOLUME")
               for v in (argv(value) if value.startswith("[") else value.split())]
    check(bool(volumes), "Dockerfile: no VOLUME for the data directory")
    for var in ("STORAGE_DIR", "MAIL_OUTBOX_DIR"):
        check(any(envs.get(var, "").startswith(v.rstrip("/") + "/") for v in volumes),
              f"Dockerfile: {var} is not inside a VOLUME")

    copies = " ".join(of("COPY")) + " "
    check(re.search(r"--from=\S+ \S*vendorwatch-cli ", copies) is not None,
          "Dockerfile: the binary is not copied from a build stage")
    check(re.search(r"(^| )config/? ", copies) is not None, "Dockerfile: config/ is not copied")
    check(re.search(r"--from=\S+ \S*assets/? ", copies) is not None,
          "Dockerfile: assets/ is not copied from the frontend stage")
    command = [argv(v) for v in of("ENTRYPOINT")[-1:] + of("CMD")[-1:]]
    command = [word for part in command for word in part]
    check(len(command) == 2 and Path(command[0]).name == "vendorwatch-cli"
          and command[1] == "start",
          f"Dockerfile: default command {command}, want `vendorwatch-cli start`")
    return {"healthcheck": has_healthcheck, "volumes": volumes}


def dockerignore_patterns():
    path = ROOT / ".dockerignore"
    lines = [line.strip() for line in path.read_text().splitlines()] if path.exists() else []
    return [line for line in lines if line and not line.startswith("#")]


def ignored(path, patterns):
    path = path.strip("/")
    parts = path.split("/")
    for pattern in (p.strip("/") for p in patterns if not p.startswith("!")):
        if pattern.startswith("**/"):
            if any(fnmatch("/".join(parts[i:]), pattern[3:]) for i in range(len(parts))):
                return True
        elif fnmatch(path, pattern) or path.startswith(pattern + "/"):
            return True
    return False


def check_build_context(stages):
    """Every file copied from the context is there, and .dockerignore keeps out what is built
    inside (or must never be sent) without hiding a source."""
    patterns = dockerignore_patterns()
    for want in (".git", "target", "node_modules", "assets", "*.sqlite"):
        check(any(p.strip("/").removeprefix("**/") == want for p in patterns),
              f".dockerignore: does not exclude {want}")
    for stage in stages:
        for kind, value in stage["ins"]:
            for src in copy_sources(value) if kind in ("COPY", "ADD") else []:
                check((ROOT / src).exists(), f"Dockerfile: COPY {src}: not in the repository")
                check(not ignored(src, patterns), f"Dockerfile: COPY {src}: in .dockerignore")


def check_dockerfile(config):
    stages = dockerfile_stages()
    check(bool(stages), "Dockerfile: no FROM")
    if not stages:
        return {}
    check_build_stages(stages)
    check_build_context(stages)
    return check_runtime_stage(stages[-1], config)


# --- compose.yaml -----------------------------------------------------------------------------

def passthrough_default(name, value):
    """`${NAME:-default}` or `${NAME-default}` -> default; anything else -> None."""
    m = re.fullmatch(r"\$\{" + name + r":?-(.*)\}", str(value))
    return m.group(1) if m else None


def check_app_service(name, service, config, image):
    where = f"compose.yaml: {name}"
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(e.split("=", 1) if "=" in e else (e, None) for e in env)
    check_names(where, env, config)
    for var, value in env.items():
        default = passthrough_default(var, value)
        if default is not None and config.get(var) is not None:
            check(default == config[var], f"{where}: {var} defaults to {default!r}, "
                                          f"config/production.yaml to {config[var]!r}")
    command = service.get("command")
    command = argv(command) if isinstance(command, str) else command
    check(command == COMMANDS.get(name), f"{where}: command {command}, want {COMMANDS.get(name)}")
    signal = STOP_SIGNALS.get(" ".join(command or ["start"]), "SIGTERM")
    check(service.get("stop_signal", "SIGTERM") == signal, f"{where}: stop_signal should be {signal}")
    mounts = [str(v).split(":")[1] for v in service.get("volumes", []) if ":" in str(v)]
    check(all(v in mounts for v in image.get("volumes", [])),
          f"{where}: the image's VOLUME is not mounted")
    if name != "app":
        check((service.get("healthcheck") or {}).get("disable") is True,
              f"{where}: the image's HEALTHCHECK (the server's /_health) must be disabled")


def check_compose(config, image):
    doc = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = doc.get("services") or {}
    images = [str(s.get("image", "")) for s in services.values()]
    check(any(i.startswith("postgres:15") for i in images), "compose.yaml: no postgres:15 service")
    check(any(i.startswith("redis:7") for i in images), "compose.yaml: no redis:7 service")
    check(any(re.search(r"minio/minio|moto", i) for i in images),
          "compose.yaml: no S3-compatible service")

    ours = {name: s for name, s in services.items()
            if (s.get("build") or {}).get("dockerfile") == "deploy/Dockerfile"}
    check(set(ours) == set(COMMANDS), f"compose.yaml: services built from deploy/Dockerfile: "
                                      f"{sorted(ours)}, want {sorted(COMMANDS)}")
    for name, service in ours.items():
        check_app_service(name, service, config, image)
    worker = services.get("worker", {})
    check("container_name" not in worker and not worker.get("ports"),
          "compose.yaml: worker has a container_name or ports, so it cannot be scaled")

    def healthy(target):
        own = services.get(target, {}).get("healthcheck") or {}
        inherited = target in ours and image.get("healthcheck")
        return not own.get("disable") and bool(own.get("test") or inherited)

    for name, service in services.items():
        depends = service.get("depends_on") or {}
        for target, rule in (depends.items() if isinstance(depends, dict) else []):
            check(target in services, f"compose.yaml: {name} depends on unknown service {target}")
            if (rule or {}).get("condition") == "service_healthy":
                check(healthy(target), f"compose.yaml: {name} waits for {target} to be healthy, "
                                       "which has no healthcheck")
        for volume in service.get("volumes", []):
            source = str(volume).split(":")[0]
            if not source.startswith((".", "/")):
                check(source in (doc.get("volumes") or {}),
                      f"compose.yaml: volume {source} is not declared")
        if name not in ours and service.get("restart") != "no":
            check(healthy(name), f"compose.yaml: {name} has no healthcheck")


def main():
    config = config_vars()
    check(len(config) > 10, "config/production.yaml: no get_env variables found")
    image = check_dockerfile(config)
    check_compose(config, image)
    check_systemd(DEPLOY / "systemd", config, check, check_names, STOP_SIGNALS)
    for what in failed:
        print(f"FAILED: {what}")
    print(f"deploy checks: {passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
