"""Where people paste a secret: the text around it, the file it lands in, how it is escaped.

A `Frame` is the text before and after the pasted value and the escaping the value goes
through on its way in (JSON string escapes, YAML block indentation, `\\n` in an env file).
The settings are the places memory notes and transcripts really carry credentials: a
Markdown memory note with YAML frontmatter, a shell history excerpt, JSON, YAML, INI and
env files, a Chinese or a German sentence, a fenced code block, a line of a Claude Code
session transcript, and a log line longer than 4 KB.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.heldout.secrets.shapes import ALNUM, HEX, LOWER, draw, uuid4

MARK = "\ue000"  # a private-use character: never escaped, never in a secret


def plain(text: str) -> str:
    return text


def json_escape(text: str) -> str:
    # As Claude Code (JavaScript's JSON.stringify) writes it: non-ASCII left as it is.
    return json.dumps(text, ensure_ascii=False)[1:-1]


def env_escape(text: str) -> str:
    return text.replace("\n", "\\n")


@dataclass(frozen=True)
class Frame:
    head: str
    tail: str
    path: str
    escape: Callable[[str], str] = field(default=plain)


@dataclass(frozen=True)
class Where:
    """What a setting needs to know about the secret's kind to phrase its line."""

    label: str  # how people name it in prose: "GitHub token"
    var: str  # the variable it is kept in: GITHUB_TOKEN, password, api_key
    service: str  # a short name for a config section: github, billing
    command: str  # a shell line using it, "{}" where the value goes ("" = export it)
    multiline: bool


def split(text: str) -> tuple[str, str]:
    head, tail = text.split(MARK)
    return head, tail


def _slug(where: Where) -> str:
    return where.service.lower().replace(" ", "-")


def _key(where: Where) -> str:
    return where.var.lower() if where.var.isupper() else where.var


def _env(where: Where) -> str:
    return where.var.upper()


def _frontmatter(where: Where, rng: random.Random) -> str:
    kind = rng.choice(["reference", "project", "feedback"])
    return (
        f"---\nname: {_slug(where)}-{draw(rng, LOWER, 4)}\n"
        f"description: how we reach {where.service} from staging\ntype: {kind}\n---\n\n"
    )


def note(where: Where, rng: random.Random) -> Frame:
    path = f"notes/{_slug(where)}_{draw(rng, LOWER, 5)}.md"
    top = _frontmatter(where, rng) + f"# {where.service} access\n\n"
    if where.multiline:
        head = top + f"The {where.label} for the deploy box (ask before rotating):\n\n```\n"
        return Frame(head, "\n```\n\nIt lives in the team vault too.\n", path)
    line = rng.choice(
        [
            f"Staging uses this {where.label}: {MARK}\n",
            f"- {where.label} for CI is `{MARK}` (expires in 90 days)\n",
            f"When the deploy fails with 401, the {where.label} is {MARK} and it "
            "goes in the header.\n",
        ]
    )
    head, tail = split(line)
    return Frame(top + head, tail + "\nSee also [[deploy]].\n", path)


def shell(where: Where, rng: random.Random) -> Frame:
    usage = where.command or f"export {_env(where)}={{}}"
    before = ["cd ~/src/shop", "git pull --rebase", "make test"]
    after = ["kubectl get pods -n staging", "ls -la"]
    if rng.random() < 0.5:
        lines = [f"$ {c}" for c in before] + [f"$ {usage}"] + [f"$ {c}" for c in after]
        text = "```console\n" + "\n".join(lines) + "\n```\n"
        path = f"notes/commands_{draw(rng, LOWER, 5)}.md"
    else:
        stamp = rng.randint(1_730_000_000, 1_760_000_000)
        lines = [f": {stamp + i * 7}:0;{c}" for i, c in enumerate([*before, usage, *after])]
        text = "\n".join(lines) + "\n"
        path = "history/zsh_history"
    head, tail = split(text.replace("{}", MARK, 1))
    return Frame(head, tail, path)


def json_file(where: Where, rng: random.Random) -> Frame:
    config = {
        "service": where.service,
        "region": rng.choice(["eu-central-1", "us-east-1"]),
        _key(where): MARK,
        "timeout_ms": rng.randint(500, 9000),
    }
    head, tail = split(json.dumps(config, indent=2, ensure_ascii=False))
    return Frame(head, tail + "\n", f"config/{_slug(where)}.json", json_escape)


def yaml_file(where: Where, rng: random.Random) -> Frame:
    path = f"config/{_slug(where)}.yaml"
    if where.multiline:
        head = f"{where.service}:\n  enabled: true\n  {_key(where)}: |\n    "
        return Frame(head, "\n  retries: 3\n", path, lambda s: s.replace("\n", "\n    "))
    quote = rng.choice(["", '"', "'"])
    head = f"{where.service}:\n  enabled: true\n  {_key(where)}: {quote}"
    return Frame(head, f"{quote}\n  retries: 3\n", path)


def env_file(where: Where, rng: random.Random) -> Frame:
    quote = '"' if where.multiline else rng.choice(["", '"'])
    head = f"# {where.service}\nLOG_LEVEL=info\n{_env(where)}={quote}"
    return Frame(head, f"{quote}\nPORT=8080\n", "deploy/.env.staging", env_escape)


def ini_file(where: Where, rng: random.Random) -> Frame:
    section = rng.choice(["default", "staging"])
    head = f"[{section}]\nregion = eu-west-1\n{_key(where)} = "
    return Frame(head, "\noutput = json\n", "notes/aws-credentials.ini")


def chinese(where: Where, rng: random.Random) -> Frame:
    path = f"notes/{_slug(where)}_zh.md"
    if where.multiline:
        return Frame(f"部署机用的{where.label}如下，别发到群里：\n\n```\n", "\n```\n", path)
    line = rng.choice(
        [
            f"测试环境的{where.label}是 {MARK}，别提交到仓库里。\n",
            f"{where.label}：{MARK}（上周五新生成的，90 天后过期）\n",
            f"运维说把 {MARK} 填到配置里就能连上了。\n",
        ]
    )
    head, tail = split(line)
    return Frame(head, tail, path)


def german(where: Where, rng: random.Random) -> Frame:
    path = f"notes/{_slug(where)}_de.md"
    if where.multiline:
        return Frame(
            f"Der {where.label} für den Build-Server, bitte nicht weitergeben:\n\n```\n",
            "\n```\n",
            path,
        )
    line = rng.choice(
        [
            f"Der {where.label} für Staging lautet {MARK} – bitte nicht weitergeben.\n",
            f"Neuer {where.label}: {MARK} (gilt bis Ende des Quartals).\n",
            f"Zum Testen einfach {MARK} eintragen, dann klappt der Login.\n",
        ]
    )
    head, tail = split(line)
    return Frame(head, tail, path)


def code_block(where: Where, rng: random.Random) -> Frame:
    path = f"notes/snippet_{draw(rng, LOWER, 5)}.md"
    if where.multiline:
        head = f'```python\n{_key(where).upper()} = """'
        return Frame(head, '"""\n```\n', path)
    key = _key(where)
    line = rng.choice(
        [
            f'```python\n{key} = os.environ.get("{_env(where)}", "{MARK}")\n```\n',
            f"```js\nconst client = new Client({{ {key}: '{MARK}' }});\n```\n",
            f'```go\nconst {key} = "{MARK}"\n```\n',
        ]
    )
    head, tail = split(line)
    return Frame(head, tail, path)


def _transcript_line(rng: random.Random, content: str, tool: bool) -> str:
    if tool:
        message = {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "content": content,
                    "tool_use_id": "toolu_" + draw(rng, ALNUM, 24),
                }
            ],
        }
    else:
        message = {"role": "user", "content": content}
    record = {
        "parentUuid": uuid4(rng),
        "isSidechain": False,
        "type": "user",
        "message": message,
        "uuid": uuid4(rng),
        "timestamp": "2026-11-30T09:14:07.512Z",
    }
    return json.dumps(record, ensure_ascii=False) + "\n"


def _tool_use_line(rng: random.Random, command: str) -> str:
    call = {
        "type": "tool_use",
        "id": "toolu_" + draw(rng, ALNUM, 24),
        "name": "Bash",
        "input": {"command": command, "description": "Run the command"},
    }
    record = {
        "parentUuid": uuid4(rng),
        "type": "assistant",
        "uuid": uuid4(rng),
        "message": {"role": "assistant", "content": [call]},
    }
    return json.dumps(record, ensure_ascii=False) + "\n"


def transcript(where: Where, rng: random.Random) -> Frame:
    path = f"sessions/{uuid4(rng)}.jsonl"
    if where.command and rng.random() < 0.6:
        head, tail = split(_tool_use_line(rng, where.command.replace("{}", MARK, 1)))
        return Frame(head, tail, path, json_escape)
    if where.multiline:
        content = f"$ cat ~/.config/{_slug(where)}/key\n{MARK}\n"
        tool = True
    else:
        content = rng.choice(
            [
                f"here's the {where.label}, use it for the deploy: {MARK}",
                f"{_env(where)}={MARK}\nLOG_LEVEL=debug\n",
            ]
        )
        tool = content.startswith(_env(where))
    head, tail = split(_transcript_line(rng, content, tool))
    return Frame(head, tail, path, json_escape)


def _log_records(rng: random.Random, length: int) -> str:
    records: list[str] = []
    size = 0
    while size < length:
        record = (
            f'{{"level":"info","path":"/api/v1/orders/{rng.randint(1, 99999)}",'
            f'"ms":{rng.randint(1, 900)},"trace":"{draw(rng, HEX, 16)}"}},'
        )
        records.append(record)
        size += len(record)
    return "".join(records)


def long_line(where: Where, rng: random.Random) -> Frame:
    """One line over 4 KB, the value at a random offset — often astride a 4 KB mark."""
    target = rng.choice([rng.randint(0, 12_000), 4096 * rng.randint(1, 3) - rng.randint(0, 60)])
    opening = '{"logs":['
    filler = _log_records(rng, max(0, target - 200))
    pad = max(0, target - len(opening) - len(filler) - 30)
    head = opening + filler + '{"note":"' + "-" * pad + '","auth":"Bearer '
    tail = '"},' + _log_records(rng, rng.randint(600, 6000)).rstrip(",") + "]}\n"
    return Frame("build log:\n" + head, tail, f"notes/buildlog_{draw(rng, LOWER, 5)}.md")


def npmrc(where: Where, rng: random.Random) -> Frame:
    scope = rng.choice(["", "@acme:registry=https://registry.npmjs.org/\n"])
    head = f"{scope}//registry.npmjs.org/:_authToken="
    return Frame(head, "\nalways-auth=true\n", "notes/npmrc.md")


def pypirc(where: Where, rng: random.Random) -> Frame:
    head = "[distutils]\nindex-servers =\n    pypi\n\n[pypi]\nusername = __token__\npassword = "
    return Frame(head, "\n", "notes/pypirc.md")


def kubeconfig(where: Where, rng: random.Random) -> Frame:
    cluster = rng.choice(["staging", "prod-eu", "kind-dev"])
    head = (
        f"apiVersion: v1\nkind: Config\ncurrent-context: {cluster}\nclusters:\n"
        f"- name: {cluster}\n  cluster:\n    server: https://10.0.{rng.randint(0, 9)}.1:6443\n"
        f"users:\n- name: {cluster}-admin\n  user:\n    {where.var}: "
    )
    return Frame(head, "\n", f"notes/kubeconfig-{cluster}.yaml")


SETTINGS: dict[str, Callable[[Where, random.Random], Frame]] = {
    "note": note,
    "shell": shell,
    "json": json_file,
    "yaml": yaml_file,
    "env": env_file,
    "ini": ini_file,
    "zh": chinese,
    "de": german,
    "code": code_block,
    "jsonl": transcript,
    "long-line": long_line,
    "npmrc": npmrc,
    "pypirc": pypirc,
    "kubeconfig": kubeconfig,
}
