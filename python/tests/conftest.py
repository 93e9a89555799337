"""Shared fixtures: one validated Context for the session (the default context), a check that no test
leaves a validation message behind, and a seeded numpy generator per test.

Run from the repository root (docs/python.md, "Tests"):
  PYTHONPATH=<build>/python /usr/bin/python3 -m pytest -q python/tests
"""
import os
import sys
import zlib

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import vkindex  # noqa: E402


def pytest_report_header(config):
    lines = []
    try:
        for info in vkindex.devices():
            lines.append("vkindex device %s: %s (%s, driver %s)" % (
                getattr(info, "index", "?"), info.name, getattr(info, "type", "?"),
                getattr(info, "driver_name", "?")))
    except Exception as error:  # reported, the tests then fail on their own
        lines.append("vkindex.devices() failed: %r" % (error,))
    lines.append("VK_DRIVER_FILES=%s" % os.environ.get("VK_DRIVER_FILES", ""))
    return lines


_SESSION = {}


def pytest_terminal_summary(terminalreporter):
    """The device the tests ran on, printed also under -q (where the header is not)."""
    context = _SESSION.get("context")
    if context is not None:
        terminalreporter.write_line("vkindex tests ran on: %s (validation messages: %d)" % (
            context.device.name, context.validation_message_count))


@pytest.fixture(scope="session")
def ctx():
    """The session's Context, with the Khronos validation layer on, made the default context."""
    context = vkindex.Context(validation=True)
    vkindex.set_default_context(context)
    _SESSION["context"] = context
    return context


@pytest.fixture(autouse=True)
def no_validation_messages(ctx):
    """Fails the test when the validation layer reported anything while it ran."""
    before = ctx.validation_message_count
    yield
    after = ctx.validation_message_count
    if after != before:
        pytest.fail("%d validation message(s) during the test; the session's first: %s" % (
            after - before, ctx.first_validation_message), pytrace=False)


@pytest.fixture
def rng(request):
    """A numpy Generator seeded from the test's id: the same data on every run."""
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))
