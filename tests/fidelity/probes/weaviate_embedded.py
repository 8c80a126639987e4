"""Probe: can Weaviate run in process here? (No: embedded mode downloads its server binary.)

weaviate-client 4.24.1 ``weaviate.connect_to_embedded`` fetches the Weaviate server tarball
(default version 1.40.2) from GitHub releases, or asks the GitHub API for "latest"; this machine
reaches only package registries, so both fail at name resolution before anything starts. Needs a
Python with weaviate-client (not one of the repo's extras; without it the probe exits as skipped).
Facts: docs/engines/weaviate.md (``weaviate-embedded-*``), the evidence that the weaviate profile
cannot be measured here. Run: python tests/fidelity/probes/weaviate_embedded.py
"""

from __future__ import annotations

import time
import warnings

from _probe import check, error_of, finish, require, scratch_dir

STARTED = time.perf_counter()


def main() -> None:
    require("weaviate", "weaviate-client")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import weaviate
        from weaviate.embedded import EmbeddedOptions, EmbeddedV4

    check("weaviate-client-version", weaviate.__version__, "4.24.1")
    check("weaviate-embedded-default-server-version", EmbeddedOptions().version, "1.40.2")
    with scratch_dir("weaviate") as root:
        embedded = EmbeddedV4(
            EmbeddedOptions(binary_path=str(root / "bin"), persistence_data_path=str(root / "data"))
        )
        check(
            "weaviate-embedded-download-url",
            embedded._download_url,
            "https://github.com/weaviate/weaviate/releases/download/v1.40.2/"
            "weaviate-v1.40.2-Linux-amd64.tar.gz",
        )
        check(
            "weaviate-embedded-download-blocked",
            error_of(embedded.ensure_weaviate_binary_exists),
            ("URLError", "<urlopen error [Errno -2] Name or service not known>"),
        )
        check(
            "weaviate-embedded-latest-blocked",
            error_of(
                lambda: EmbeddedV4(
                    EmbeddedOptions(
                        version="latest",
                        binary_path=str(root / "bin"),
                        persistence_data_path=str(root / "data"),
                    )
                )
            ),
            ("ConnectError", "[Errno -2] Name or service not known"),
        )
        check(
            "weaviate-connect-to-embedded-fails",
            error_of(
                lambda: weaviate.connect_to_embedded(
                    persistence_data_path=str(root / "data"), binary_path=str(root / "bin")
                )
            )[0],
            "URLError",
        )
    finish(STARTED)


if __name__ == "__main__":
    main()
