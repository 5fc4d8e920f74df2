import type { ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { initHome } from "./init.js";
import { runVisor } from "./visor.js";
import { skipHeightsArg, visorConfig, withBinary } from "./visor-config.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), "visor-"));
  dirs.push(home);
  const r = initHome({ home, chainId: "v", validators: 1, keySeed: "v" });
  if (!r.ok) throw new Error(r.error);
  return home;
}

/** What a fake node does when launched: halt for an upgrade (writes the file, exits 1), exit with a code, or run. */
type Behaviour = { halt: { name: string; height: number } } | { exit: number } | "run";

function fakeLauncher(home: string, behaviours: Behaviour[]) {
  const launches: string[][] = [];
  const kills: string[] = [];
  const launch = (args: readonly string[]): ChildProcess => {
    launches.push([...args]);
    const b = behaviours.shift() ?? { exit: 0 };
    const child = new EventEmitter() as EventEmitter & { kill: (s: string) => boolean };
    let done = false;
    const exit = (code: number | null, sig: string | null) => {
      if (done) return;
      done = true;
      setImmediate(() => child.emit("exit", code, sig));
    };
    child.kill = (s: string) => {
      kills.push(s);
      exit(null, s);
      return true;
    };
    setTimeout(() => {
      if (b === "run") return;
      if ("halt" in b) {
        writeFileSync(
          join(home, "data", "upgrade-info.json"),
          `{"name":"${b.halt.name}","time":"0001-01-01T00:00:00Z","height":${b.halt.height}}`,
        );
        exit(1, null);
      } else exit(b.exit, null);
    }, 30);
    return child as unknown as ChildProcess;
  };
  return { launch, launches, kills };
}

async function visor(
  home: string,
  behaviours: Behaviour[],
  env: Record<string, string> = {},
  args = ["--binary", "v1"],
) {
  const f = fakeLauncher(home, behaviours);
  const out: string[] = [];
  const code = await runVisor({
    home,
    args,
    env: { DAEMON_POLL_INTERVAL: "20ms", UNSAFE_SKIP_BACKUP: "true", ...env },
    launch: f.launch,
    out: (l) => out.push(l),
    err: (l) => out.push(l),
  });
  return { code, out, ...f };
}

const counterScript = (home: string, fails: number, failCode: number) =>
  `n=$(cat ${join(home, "count")} 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${join(home, "count")}; [ $n -le ${fails} ] && exit ${failCode}; exit 0`;

describe("visor", () => {
  it("switches to the binary with the handler, retries pre-upgrade on 31, relaunches with the same args", async () => {
    const home = newHome();
    const r = await visor(
      home,
      [{ halt: { name: "v2", height: 10 } }, { exit: 0 }],
      {
        DAEMON_PREUPGRADE_COMMAND: counterScript(home, 2, 31),
        DAEMON_PREUPGRADE_MAX_RETRIES: "2",
        UNSAFE_SKIP_BACKUP: "false",
      },
      ["--binary", "v1", "--block-time", "1s"],
    );
    expect(r.code).toBe(0);
    expect(r.launches).toEqual([
      ["--binary", "v1", "--block-time", "1s"],
      ["--binary", "v2", "--block-time", "1s"],
    ]);
    expect(readFileSync(join(home, "count"), "utf8").trim()).toBe("3");
    expect(JSON.parse(readFileSync(join(home, "cosmovisor", "current.json"), "utf8"))).toEqual({
      binary: "v2",
      upgrade: { name: "v2", height: 10 },
    });
    expect(r.out).toContain("INF pre-upgrade successful. continuing the upgrade.");
    expect(r.out.some((l) => l.startsWith("INF backup completed"))).toBe(true);
    // A later visor start with the same file present does not upgrade again (same name as the current upgrade).
    const again = await visor(home, [{ exit: 0 }]);
    expect(again.launches).toEqual([["--binary", "v2"]]);
  });

  it("pre-upgrade exit codes: 30 fails at once, 31 beyond the retries fails, 1 and unset continue", async () => {
    const h1 = newHome();
    const r30 = await visor(h1, [{ halt: { name: "v2", height: 5 } }], { DAEMON_PREUPGRADE_COMMAND: "exit 30" });
    expect(r30.code).toBe(1);
    expect(r30.out).toContain("Error: pre-upgrade command failed : exit status 30");
    const h2 = newHome();
    const r31 = await visor(h2, [{ halt: { name: "v2", height: 5 } }], {
      DAEMON_PREUPGRADE_COMMAND: "exit 31",
      DAEMON_PREUPGRADE_MAX_RETRIES: "1",
    });
    expect(r31.out).toContain("Error: pre-upgrade command failed. reached max attempt of retries - 1");
    const h3 = newHome();
    const none = await visor(h3, [{ halt: { name: "v2", height: 5 } }, { exit: 0 }]);
    expect(none.code).toBe(0);
    expect(none.out).toContain("INF pre-upgrade command does not exist. continuing the upgrade.");
  });

  it("never restarts a crashed node, skips listed heights, and honours restart-after-upgrade = false", async () => {
    const crash = await visor(newHome(), [{ exit: 3 }]);
    expect(crash.code).toBe(3);
    expect(crash.launches).toHaveLength(1);

    const skipHome = newHome();
    const skip = await visor(skipHome, [{ halt: { name: "v2", height: 7 } }, { exit: 0 }], {}, [
      "--binary",
      "v1",
      "--unsafe-skip-upgrades",
      "7",
    ]);
    expect(skip.launches.map((a) => a[1])).toEqual(["v1", "v1"]);
    expect(existsSync(join(skipHome, "cosmovisor", "current.json"))).toBe(false);

    const off = await visor(newHome(), [{ halt: { name: "v2", height: 7 } }], {
      DAEMON_RESTART_AFTER_UPGRADE: "false",
    });
    expect(off.code).toBe(0);
    expect(off.launches).toHaveLength(1);
    expect(off.out).toContain(
      "upgrade detected, DAEMON_RESTART_AFTER_UPGRADE is off. Verify new upgrade and start cosmovisor again.",
    );
  });

  it("stops a running node when the file appears, and rejects invalid content", async () => {
    const home = newHome();
    const f = visor(home, ["run", { exit: 0 }]);
    await new Promise((r) => setTimeout(r, 100));
    writeFileSync(join(home, "data", "upgrade-info.json"), '{"name":"v2","height":12}');
    const r = await f;
    expect(r.kills).toEqual(["SIGKILL"]);
    expect(r.launches.map((a) => a[1])).toEqual(["v1", "v2"]);

    const bad = newHome();
    writeFileSync(join(bad, "data", "upgrade-info.json"), '{"name":"","height":3}');
    const b = await visor(bad, ["run"]);
    expect(b.code).toBe(1);
    expect(b.out).toContain("Error: invalid upgrade-info.json content; name and height must be not empty");
  });

  it("reports an upgrade no binary has a handler for", async () => {
    const r = await visor(newHome(), [{ halt: { name: "v9", height: 4 } }]);
    expect(r.out).toContain(
      'Error: binary not present, downloading disabled: no binary registers a handler for upgrade "v9"',
    );
  });

  it("validates its environment like the reference (errors joined)", () => {
    const c = visorConfig("/home", {
      DAEMON_POLL_INTERVAL: "0s",
      UNSAFE_SKIP_BACKUP: "maybe",
      DAEMON_DATA_BACKUP_DIR: "rel",
    });
    expect(c).toEqual({
      ok: false,
      error: [
        "DAEMON_POLL_INTERVAL must be greater than 0",
        'env variable "UNSAFE_SKIP_BACKUP" must have a boolean value ("true" or "false"), got "maybe"',
        "DAEMON_DATA_BACKUP_DIR must be an absolute path",
      ].join("\n"),
    });
    expect(withBinary(["--home", "h", "--binary=v1"], "v2")).toEqual(["--home", "h", "--binary=v2"]);
    expect(withBinary(["--home", "h"], "v2")).toEqual(["--home", "h", "--binary", "v2"]);
    expect(skipHeightsArg(["--unsafe-skip-upgrades", "5,6", "--unsafe-skip-upgrades=9"])).toEqual([5, 6, 9]);
  });
});
