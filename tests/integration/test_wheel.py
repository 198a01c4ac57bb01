"""What an installed wheel holds: styles, migrations, templates and demo data ship inside
the packages, so nothing depends on running from a checkout."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_wheel_installs_and_the_app_finds_its_styles(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("jobtracker-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    styles = {p.name for p in (ROOT / "styles").glob("*.tcss")}
    assert styles and {f"tui/styles/{name}" for name in styles} <= names
    assert {f"jobtracker/store/migrations/{p.name}"
            for p in (ROOT / "jobtracker/store/migrations").glob("*.sql")} <= names
    assert "jobtracker/templates/config.yaml" in names
    assert any(n.startswith("jobtracker/demo/data/") for n in names)
    # Installed without its dependencies into a bare environment that can still see
    # ours: the app resolves its styles inside the installed package, not the checkout.
    env_dir = tmp_path / "env"
    venv.create(env_dir, system_site_packages=False, with_pip=False)
    site = next((env_dir / "lib").glob("python3*/site-packages"))
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    ours = [p for p in sys.path if p.endswith("site-packages")]
    code = (f"import sys; sys.path[1:1] = {ours!r}; import tui.app as a; "
            f"d = a.styles_dir(); print(d, all((d / n).is_file() for n in {sorted(styles)!r}))")
    result = subprocess.run([str(env_dir / "bin" / "python"), "-c", code], cwd=tmp_path,
                            capture_output=True, text=True, check=True)
    where, found = result.stdout.split()
    assert Path(where) == site / "tui" / "styles"
    assert found == "True"
