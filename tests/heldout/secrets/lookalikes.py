"""What memory notes and transcripts hold that looks like a secret and is not one.

Each generator returns (setting, path, text) triples; none of them carries a credential.
Hashes and ids are drawn at random, the documented example keys are the providers' own
(joined at run time), placeholders and references are written the ways READMEs,
CI files and Helm charts write them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from tests.heldout.secrets import shapes as s
from tests.heldout.secrets.shapes import glue

Item = tuple[str, str, str]


def _note(title: str, body: str) -> str:
    return (
        f"---\nname: {title}\ndescription: {title.replace('-', ' ')}\ntype: project\n---\n\n{body}"
    )


def commit_shas(rng: random.Random) -> list[Item]:
    sha = [s.draw(rng, s.HEX, 40) for _ in range(5)]
    return [
        (
            "note",
            "notes/release.md",
            _note(
                "release-fix",
                f"The regression came in with {sha[0]}; revert it with `git revert {sha[1]}`.\n",
            ),
        ),
        ("shell", "history/zsh_history", f": 1733000000:0;git cherry-pick {sha[2]}\n"),
        ("json", "config/build.json", json.dumps({"commit": sha[3], "branch": "main"}, indent=2)),
        ("zh", "notes/zh_release.md", f"回滚到提交 {sha[4]} 之后问题消失了。\n"),
        (
            "jsonl",
            "sessions/a.jsonl",
            json.dumps(
                {
                    "type": "user",
                    "message": {
                        "content": f"HEAD is now at {sha[0][:7]} and origin/main is {sha[1]}"
                    },
                }
            )
            + "\n",
        ),
    ]


def uuids(rng: random.Random) -> list[Item]:
    ids = [s.uuid4(rng) for _ in range(5)]
    return [
        ("yaml", "config/pod.yaml", f"metadata:\n  name: api-7c9d8f6b5-x2x9k\n  uid: {ids[0]}\n"),
        (
            "note",
            "notes/incident.md",
            _note("incident-42", f"Request id {ids[1]} failed with 502.\n"),
        ),
        ("json", "config/tenant.json", json.dumps({"tenant_id": ids[2], "client_id": ids[3]})),
        ("de", "notes/de_trace.md", f"Der Trace mit der ID {ids[4]} zeigt den Timeout.\n"),
        ("env", "deploy/.env.staging", f"TENANT_ID={ids[0]}\nSUBSCRIPTION_ID={ids[1]}\n"),
    ]


def digests(rng: random.Random) -> list[Item]:
    d = [s.draw(rng, s.HEX, 64) for _ in range(5)]
    return [
        ("yaml", "config/deploy.yaml", f"image: ghcr.io/acme/shop@sha256:{d[0]}\n"),
        (
            "shell",
            "notes/checksums.md",
            f"```console\n$ sha256sum release.tar.gz\n{d[1]}  release.tar.gz\n```\n",
        ),
        ("json", "config/manifest.json", json.dumps({"digest": f"sha256:{d[2]}", "size": 7023})),
        (
            "note",
            "notes/lfs.md",
            _note(
                "lfs-pointer",
                f"version https://git-lfs.github.com/spec/v1\noid sha256:{d[3]}\nsize 1048576\n",
            ),
        ),
        ("zh", "notes/zh_image.md", f"镜像摘要是 sha256:{d[4]}，部署前核对一下。\n"),
        (
            "shell",
            "notes/md5.md",
            f"md5: {s.draw(rng, s.HEX, 32)}\nsha1: {s.draw(rng, s.HEX, 40)}\n",
        ),
    ]


def base64_data(rng: random.Random) -> list[Item]:
    png = s.b64(b"\x89PNG\r\n\x1a\n" + s.noise(rng, 300))
    blob = s.b64(s.noise(rng, 180))
    font = s.b64(b"wOF2" + s.noise(rng, 240))
    return [
        ("note", "notes/logo.md", _note("logo", f"![logo](data:image/png;base64,{png})\n")),
        (
            "json",
            "config/fixture.json",
            json.dumps({"attachment": {"name": "scan.pdf", "data": blob}}),
        ),
        (
            "code",
            "notes/css.md",
            f"```css\n@font-face {{ src: url(data:font/woff2;base64,{font}) }}\n```\n",
        ),
        (
            "jsonl",
            "sessions/b.jsonl",
            json.dumps(
                {
                    "type": "user",
                    "message": {
                        "content": [
                            {
                                "type": "image",
                                "source": {
                                    "type": "base64",
                                    "media_type": "image/png",
                                    "data": png,
                                },
                            }
                        ]
                    },
                }
            )
            + "\n",
        ),
    ]


AWS_ID_EXAMPLES = (glue("AKIA", "IOSFODNN7", "EXAMPLE"), glue("AKIA", "I44QH8DHB", "EXAMPLE"))
AWS_SECRET_EXAMPLES = (
    glue("wJalrXUtnFEMI/K7MDENG/", "bPxRfiCY", "EXAMPLEKEY"),
    glue("je7MtGbClwBF/2Zp9Utk/", "h3yCo8nvb", "EXAMPLEKEY"),
)


def documented_examples(rng: random.Random) -> list[Item]:
    key_id, other_id = AWS_ID_EXAMPLES
    secret, other_secret = AWS_SECRET_EXAMPLES
    slack = glue("xo", "xb-", "not-a-real-token-this-will-not-work")
    return [
        (
            "ini",
            "notes/aws-credentials.ini",
            f"[default]\naws_access_key_id = {key_id}\naws_secret_access_key = {secret}\n",
        ),
        (
            "env",
            "deploy/.env.example",
            f"AWS_ACCESS_KEY_ID={other_id}\nAWS_SECRET_ACCESS_KEY={other_secret}\n",
        ),
        (
            "note",
            "notes/aws.md",
            _note("aws-cli", f"The docs use `{key_id}` / `{secret}` as the example pair.\n"),
        ),
        ("shell", "history/zsh_history", f": 1733000000:0;export AWS_ACCESS_KEY_ID={key_id}\n"),
        ("code", "notes/slack.md", f'```python\nclient = WebClient(token="{slack}")\n```\n'),
        ("zh", "notes/zh_aws.md", f"文档里的示例密钥 {secret} 不能用，要换成自己的。\n"),
    ]


def placeholders(rng: random.Random) -> list[Item]:
    return [
        (
            "env",
            "deploy/.env.example",
            "OPENAI_API_KEY=<your-api-key>\nGITHUB_TOKEN=<your-token>\nDB_PASSWORD=\n",
        ),
        (
            "yaml",
            "config/values.yaml",
            'api_key: ${API_KEY}\npassword: "${DB_PASSWORD}"\ntoken: REPLACE_ME\n',
        ),
        (
            "json",
            "config/example.json",
            json.dumps(
                {
                    "apiKey": "YOUR_API_KEY_HERE",
                    "secret": "xxxxxxxxxxxxxxxx",
                    "password": "********",
                },
                indent=2,
            ),
        ),
        (
            "note",
            "notes/vault.md",
            _note(
                "where-passwords-live",
                'password: see 1Password, vault "Shop"\napi_key: ask @alice\n',
            ),
        ),
        (
            "note",
            "notes/tokens.md",
            _note(
                "token-format",
                "Tokens look like `"
                + glue("gh", "p_")
                + "x" * 36
                + "` or `"
                + glue("s", "k-", "proj-")
                + "...`.\n",
            ),
        ),
        (
            "env",
            "deploy/.env.example",
            "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME\n"
            "REDIS_URL=redis://:<password>@localhost:6379/0\n",
        ),
        (
            "shell",
            "notes/curl.md",
            "```console\n$ curl -H 'Authorization: Bearer <token>' https://api.acme.example\n```\n",
        ),
        ("de", "notes/de_setup.md", "Trage dein Token bei `API_TOKEN=dein-token-hier` ein.\n"),
        (
            "code",
            "notes/truncated.md",
            "Header war `Authorization: Bearer eyJhbGciOi…` (gekürzt).\n",
        ),
    ]


def references(rng: random.Random) -> list[Item]:
    return [
        (
            "code",
            "notes/settings.md",
            '```python\npassword = os.environ["DB_PASSWORD"]\n'
            "api_key = settings.STRIPE_API_KEY\nsecret = get_secret('billing')\n```\n",
        ),
        (
            "yaml",
            "config/ci.yaml",
            "env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n  GH_TOKEN: ${{ github.token }}\n",
        ),
        (
            "shell",
            "history/zsh_history",
            ": 1733000000:0;export GITHUB_TOKEN=$(gh auth token)\n"
            ": 1733000009:0;export VAULT_TOKEN=$(cat ~/.vault-token)\n",
        ),
        (
            "yaml",
            "config/deployment.yaml",
            "env:\n- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n"
            "      name: shop-db-credentials\n      key: password\n",
        ),
        (
            "env",
            "deploy/.env.staging",
            "DATABASE_URL=postgres://${DB_USER}:${DB_PASSWORD}@db:5432/shop\n",
        ),
        (
            "code",
            "notes/getpass.md",
            '```python\npassword = getpass.getpass("Vault password: ")\n```\n',
        ),
    ]


def lockfiles(rng: random.Random) -> list[Item]:
    sha512 = s.b64(s.noise(rng, 64))
    other = s.b64(s.noise(rng, 64))
    lock = {
        "node_modules/left-pad": {
            "version": "1.3.0",
            "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",
            "integrity": f"sha512-{sha512}",
        }
    }
    return [
        ("json", "notes/package-lock-excerpt.md", json.dumps(lock, indent=2)),
        (
            "yaml",
            "notes/yarn-lock.md",
            f'"@babel/core@^7.23.0":\n  version "7.23.2"\n  integrity sha512-{other}\n',
        ),
        (
            "shell",
            "notes/requirements.md",
            f"django==5.1.3 \\\n    --hash=sha256:{s.draw(rng, s.HEX, 64)}\n",
        ),
        ("code", "notes/go-sum.md", f"golang.org/x/net v0.28.0 h1:{s.b64(s.noise(rng, 32))}\n"),
        (
            "code",
            "notes/cargo-lock.md",
            f'[[package]]\nname = "serde"\nversion = "1.0.210"\n'
            f'checksum = "{s.draw(rng, s.HEX, 64)}"\n',
        ),
    ]


def versions(rng: random.Random) -> list[Item]:
    deps = {
        "react": "^18.3.1",
        "@types/node": "^20.11.5",
        "typescript": "~5.6.2",
        "esbuild": "0.24.0",
    }
    return [
        (
            "json",
            "config/package.json",
            json.dumps({"name": "shop-web", "dependencies": deps}, indent=2),
        ),
        (
            "yaml",
            "config/chart.yaml",
            'apiVersion: v2\nname: shop\nversion: 1.14.3\nappVersion: "2026.11.2-rc.1"\n',
        ),
        (
            "note",
            "notes/versions.md",
            _note("versions", "Pinned `pnpm@9.12.3+sha512.cb1f` and node 22.11.0.\n"),
        ),
    ]


def kube_names(rng: random.Random) -> list[Item]:
    pod = f"shop-api-{s.draw(rng, s.HEX, 10)}-{s.draw(rng, s.LOWER + s.DIGITS, 5)}"
    return [
        (
            "shell",
            "notes/pods.md",
            f"```console\n$ kubectl logs {pod} -n staging\n"
            "$ kubectl get secret shop-db-credentials -o yaml\n```\n",
        ),
        (
            "yaml",
            "config/secret-ref.yaml",
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: registry-token\n"
            "type: kubernetes.io/dockerconfigjson\n",
        ),
        (
            "note",
            "notes/nodes.md",
            _note(
                "nodes",
                "Node ip-10-0-1-23.eu-central-1.compute.internal, role "
                "arn:aws:iam::123456789012:role/eks-node-group-shop\n",
            ),
        ),
        ("zh", "notes/zh_pods.md", f"重启 {pod} 以后 secret-rotator-cronjob 恢复正常。\n"),
    ]


def identifiers(rng: random.Random) -> list[Item]:
    return [
        (
            "code",
            "notes/java.md",
            "```java\nclass AbstractSecretKeyRotationPolicyProviderFactoryBean {}\n```\n",
        ),
        (
            "code",
            "notes/tests.md",
            "```python\ndef test_api_key_rotation_rejects_expired_tokens_after_grace_period():\n"
            "```\n",
        ),
        (
            "code",
            "notes/go.md",
            "```go\nfunc NewPasswordResetTokenVerifierWithClock(clock Clock) *Verifier\n```\n",
        ),
        (
            "yaml",
            "config/features.yaml",
            "password_min_length: 12\ntoken_ttl_seconds: 3600\n"
            "api_key_header: X-Api-Key\nsecret_rotation_days: 90\n",
        ),
        (
            "json",
            "config/css.json",
            json.dumps(
                {
                    "className": "css-1q2w3e4r5t6y7u8i9o0p",
                    "chunk": f"main.{s.draw(rng, s.HEX, 8)}.js",
                }
            ),
        ),
    ]


def prose(rng: random.Random) -> list[Item]:
    return [
        (
            "note",
            "notes/rotation.md",
            _note(
                "token-rotation",
                "Rotate the GitHub token every 90 days. The "
                "password for staging is in the vault, never in a note.\n",
            ),
        ),
        (
            "zh",
            "notes/zh_password.md",
            "数据库密码放在 Vault 里，令牌每 90 天轮换一次，不要写进记忆。\n",
        ),
        (
            "de",
            "notes/de_password.md",
            "Das Passwort steht im Tresor; der API-Schlüssel wird jeden Monat erneuert.\n",
        ),
        (
            "jsonl",
            "sessions/c.jsonl",
            json.dumps(
                {
                    "type": "user",
                    "message": {
                        "content": "the api key expired again, can you check where the "
                        "secret key is loaded?"
                    },
                }
            )
            + "\n",
        ),
        (
            "note",
            "notes/auth.md",
            _note(
                "auth-flow",
                "Bearer tokens are JWTs signed with RS256; "
                "the refresh token lives in an httpOnly cookie.\n",
            ),
        ),
    ]


def public_keys(rng: random.Random) -> list[Item]:
    rsa = s.b64(b"\x00\x00\x00\x07ssh-rsa" + s.noise(rng, 270))
    ed = s.b64(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + s.noise(rng, 32))
    cert = "\n".join(s.wrap(s.b64(b"\x30\x82\x03\x1e\x30\x82\x02\x06" + s.noise(rng, 780))))
    pub = "\n".join(s.wrap(s.b64(b"\x30\x82\x01\x22\x30\x0d\x06\x09" + s.noise(rng, 286))))
    return [
        (
            "note",
            "notes/deploy-keys.md",
            _note("deploy-keys", f"Add this to authorized_keys:\n\nssh-rsa {rsa} ci@acme\n"),
        ),
        (
            "shell",
            "history/zsh_history",
            f": 1733000000:0;echo 'ssh-ed25519 {ed} bob@laptop' >> ~/.ssh/authorized_keys\n",
        ),
        (
            "code",
            "notes/ca.md",
            f"```\n-----BEGIN CERTIFICATE-----\n{cert}\n-----END CERTIFICATE-----\n```\n",
        ),
        (
            "code",
            "notes/jwks.md",
            f"```\n-----BEGIN PUBLIC KEY-----\n{pub}\n-----END PUBLIC KEY-----\n```\n",
        ),
        ("env", "deploy/.env.staging", f"SOPS_AGE_RECIPIENTS=age1{s.draw(rng, s.BECH32, 58)}\n"),
    ]


def encrypted(rng: random.Random) -> list[Item]:
    data = s.b64(s.noise(rng, 24))
    vault_lines = "\n".join("          " + s.draw(rng, s.HEX, 80) for _ in range(5))
    armoured = "\n".join(s.wrap(s.b64(b"age-encryption.org/v1\n" + s.noise(rng, 200))))
    return [
        (
            "yaml",
            "config/secrets.enc.yaml",
            f"db_password: ENC[AES256_GCM,data:{data},iv:{s.b64(s.noise(rng, 12))},"
            f"tag:{s.b64(s.noise(rng, 16))},type:str]\n",
        ),
        (
            "yaml",
            "config/group_vars.yaml",
            f"db_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n{vault_lines}\n",
        ),
        (
            "note",
            "notes/age.md",
            _note(
                "sealed",
                "```\n-----BEGIN AGE ENCRYPTED FILE-----\n"
                f"{armoured}\n-----END AGE ENCRYPTED FILE-----\n```\n",
            ),
        ),
    ]


def urls_without_password(rng: random.Random) -> list[Item]:
    return [
        (
            "env",
            "deploy/.env.staging",
            "DATABASE_URL=postgres://app@db.internal:5432/shop\nREDIS_URL=redis://localhost:6379/0\n",
        ),
        (
            "shell",
            "notes/mongo.md",
            "```console\n$ mongosh mongodb://localhost:27017/orders\n```\n",
        ),
        (
            "note",
            "notes/git.md",
            _note("git-remote", "Remote is https://bob@git.acme.example/shop/backend.git\n"),
        ),
        (
            "yaml",
            "config/celery.yaml",
            "broker_url: amqp://rabbit.internal:5672/shop\nresult_backend: redis://cache:6379/1\n",
        ),
    ]


def public_ids(rng: random.Random) -> list[Item]:
    org, project = rng.randint(10**5, 10**6), rng.randint(10**6, 10**7)
    dsn = f"https://{s.draw(rng, s.HEX, 32)}@o{org}.ingest.sentry.io/{project}"
    client_id = f"{rng.randint(10**11, 10**12)}-{s.draw(rng, s.LOWER + s.DIGITS, 32)}"
    client = f"{client_id}.apps.googleusercontent.com"
    return [
        ("code", "notes/sentry.md", f"```js\nSentry.init({{ dsn: '{dsn}' }});\n```\n"),
        (
            "json",
            "config/oauth.json",
            json.dumps(
                {"web": {"client_id": client, "redirect_uris": ["https://shop.example/cb"]}}
            ),
        ),
        (
            "yaml",
            "config/analytics.yaml",
            f"measurement_id: G-{s.draw(rng, s.UPPER + s.DIGITS, 10)}\n",
        ),
    ]


def misc_data(rng: random.Random) -> list[Item]:
    mac = ":".join(s.draw(rng, s.HEX, 2) for _ in range(6))
    return [
        (
            "note",
            "notes/network.md",
            _note(
                "network",
                f"Gateway fe80::{s.draw(rng, s.HEX, 4)}:{s.draw(rng, s.HEX, 4)}"
                f", MAC {mac}, build 2026.11.30T09:14:07Z\n",
            ),
        ),
        (
            "json",
            "config/theme.json",
            json.dumps({"primary": "#1f6feb", "accent": "#f78166", "seed": rng.randint(1, 10**9)}),
        ),
        (
            "jsonl",
            "sessions/d.jsonl",
            json.dumps(
                {
                    "type": "assistant",
                    "requestId": "req_" + s.draw(rng, s.ALNUM, 24),
                    "message": {"id": "msg_" + s.draw(rng, s.ALNUM, 24), "content": "Done."},
                }
            )
            + "\n",
        ),
        ("yaml", "config/empty.yaml", 'db:\n  user: shop\n  password: ""\n  token: null\n'),
    ]


LOOKALIKES: dict[str, Callable[[random.Random], list[Item]]] = {
    "commit-sha": commit_shas,
    "uuid": uuids,
    "digest": digests,
    "base64-data": base64_data,
    "documented-example": documented_examples,
    "placeholder": placeholders,
    "reference": references,
    "lockfile-hash": lockfiles,
    "version": versions,
    "kubernetes-name": kube_names,
    "identifier": identifiers,
    "prose": prose,
    "public-key": public_keys,
    "encrypted-value": encrypted,
    "url-without-password": urls_without_password,
    "public-id": public_ids,
    "misc-data": misc_data,
}
