"""Builds libseer (make, in the repository this directory sits in) and
bundles the shared library and the shipped models into the package, so
that `python3 -m pip install ./python` needs no environment variable
afterwards.  Build dependencies are libseer's own (docs/python.md)."""
import glob
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BUILD = os.path.join(REPO, "build-python")


class BuildWithLibseer(build_py):
    def run(self):
        super().run()
        pkg = os.path.join(self.build_lib, "seer")
        lib_dir = os.path.join(pkg, "_lib")
        models_dir = os.path.join(pkg, "models")
        os.makedirs(lib_dir, exist_ok=True)
        os.makedirs(models_dir, exist_ok=True)
        if os.path.exists(os.path.join(REPO, "Makefile")):
            jobs = os.environ.get("SEER_MAKE_JOBS", "2")
            subprocess.check_call(["make", "-C", REPO, "-j" + jobs, "B=" + BUILD, "lib"])
            # the one make just linked (an older version may linger in BUILD)
            libs = sorted(glob.glob(os.path.join(BUILD, "libseer.so.*.*.*")), key=os.path.getmtime)
            if not libs:
                raise RuntimeError("make did not produce %s/libseer.so.X.Y.Z" % BUILD)
            shutil.copyfile(libs[-1], os.path.join(lib_dir, "libseer.so"))
            for m in glob.glob(os.path.join(REPO, "models", "*.seer")):
                shutil.copyfile(m, os.path.join(models_dir, os.path.basename(m)))
        elif not os.path.exists(os.path.join(HERE, "seer", "_lib", "libseer.so")):
            raise RuntimeError("no libseer repository around %s to build the library from" % HERE)


class BinaryDistribution(Distribution):
    """The wheel holds a shared library: platform-specific."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithLibseer}, distclass=BinaryDistribution)
