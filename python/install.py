#!/usr/bin/env python3
"""Installs the pincer Python module built by CMake into the site-packages of the Python that runs
this script (docs/python.md):

    python3 python/install.py                 # from build/, into this Python's site-packages
    venv/bin/python python/install.py --build build-release
    python3 python/install.py --user          # into the user's site-packages
    python3 python/install.py --target DIR    # into any folder

It copies build/python/pincer/ and the network half of pincer (pincer-torch.so) into one folder
`pincer`, replacing an earlier install whole (written beside it first, then renamed).
"""
import argparse
import pathlib
import shutil
import site
import sys
import sysconfig
import tempfile


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build", help="CMake build folder (default: build)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="the user's site-packages")
    where.add_argument("--target", help="install into this folder instead of site-packages")
    args = parser.parse_args()

    package = pathlib.Path(args.build) / "python" / "pincer"
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    core = package / f"_core{suffix}"
    if not core.exists():
        built = sorted(p.name for p in package.glob("_core*.so")) if package.exists() else []
        sys.exit(f"install.py: no {core} for this Python ({sys.executable}, {suffix}); "
                 + (f"the build has {', '.join(built)}: configure with "
                    f"-DPython3_EXECUTABLE={sys.executable}" if built else
                    "build it first: cmake --build build --target pincer_python"))
    if args.target:
        site_dir = pathlib.Path(args.target)
    elif args.user:
        site_dir = pathlib.Path(site.getusersitepackages())
    else:
        site_dir = pathlib.Path(sysconfig.get_paths()["platlib"])
    site_dir.mkdir(parents=True, exist_ok=True)

    namespace = {}
    exec((package / "_build_paths.py").read_text(), namespace)
    torch_library = namespace.get("torch_library", "")

    staging = pathlib.Path(tempfile.mkdtemp(prefix=".pincer-install-", dir=site_dir))
    try:
        staged = staging / "pincer"
        shutil.copytree(package, staged, ignore=shutil.ignore_patterns("__pycache__"))
        if torch_library and pathlib.Path(torch_library).exists():
            shutil.copy2(torch_library, staged / "pincer-torch.so")
        # The installed package finds pincer-torch.so beside itself, not in the build.
        (staged / "_build_paths.py").write_text("torch_library = \"\"\n")
        final = site_dir / "pincer"
        old = None
        if final.exists():
            old = staging / "old"
            final.rename(old)
        staged.rename(final)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    print(f"installed pincer into {final}"
          + ("" if (final / "pincer-torch.so").exists() else " (without the network half: no "
             "pincer-torch.so in the build, so no models)"))


if __name__ == "__main__":
    main()
