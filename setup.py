"""Packaging beyond what pyproject.toml can say: the games' content and schemas (the top-level
`content/` folder) travel inside the installed package as `cardgen.bundled`, so an installed
cardgen finds them from any folder."""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["cardgen", "cardgen.*", "verify", "verify.*"]) + ["cardgen.bundled"],
    package_dir={"cardgen.bundled": "content"},
    package_data={"cardgen.bundled": ["*.json", "*/*.yaml", "*/*.json", "*/scenarios/*.yaml", "schema/*.json"]},
    include_package_data=False,
)
