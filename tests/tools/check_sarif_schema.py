#!/usr/bin/env python3
"""`warpdiv check --sarif` against the official SARIF 2.1.0 JSON schema.

usage: check_sarif_schema.py WARPDIV SOURCE_DIR

Writes configurations with findings of several rules (and one without any), with a suppressed
finding, single-lane findings, a kernel that cannot be read, a statement after multi-byte UTF-8
text and a configuration in a folder whose name is not UTF-8 (byte 0xE9), runs the binary,
validates every SARIF file against tests/data/sarif/sarif-schema-2.1.0.json (OASIS, see the
README there) and checks what the schema cannot: the rules, the places (UTF-16 columns), the
figures, the suppression, the percent-encoded URIs. Then it
breaks valid documents in ways the schema forbids and expects the validator to reject each, so
that a validator that accepts anything fails the test. Exit 0 passed, 1 failed, 77 skipped
(python3-jsonschema missing).
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    print("skipped: python3's jsonschema is not installed (Debian: python3-jsonschema)")
    sys.exit(77)

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED:", what)


def main():
    warpdiv, root = sys.argv[1], os.path.abspath(sys.argv[2])
    with open(os.path.join(root, "tests/data/sarif/sarif-schema-2.1.0.json")) as f:
        schema = json.load(f)
    validator = jsonschema.Draft4Validator(schema)
    with tempfile.TemporaryDirectory() as tmp:
        def check(config_text, expected_status, folder=tmp.encode()):
            config = os.path.join(folder, b"c.toml")
            sarif = os.path.join(tmp, "out.sarif")
            with open(config, "w") as f:
                f.write(config_text)
            run = subprocess.run([warpdiv, "check", config, "--sarif", sarif],
                                 capture_output=True, text=True, errors="replace")
            expect(run.returncode == expected_status,
                   f"exit status {run.returncode}, expected {expected_status}: {run.stderr}")
            with open(sarif) as f:
                return json.load(f)

        zoo = os.path.join(root, "kernels/zoo")
        # strided_load (grid 8, block 128, n = 1000, stride 3): the branch diverges in 1 of 32
        # warp evaluations, line 10 runs at 1000 / 1024 lanes and its accesses use 8000 bytes of
        # 500 sectors (tests/tools/check_cli_test.cpp works them out); the barrier-in-guard
        # multiply's two barriers are partial in 91 block executions each.
        failing = check(f'''root = "{root}"
[[kernel]]
name = "strided"
file = "{zoo}/strided_load.cu"
grid = 8
block = 128
args = {{ n = 1000, stride = 3 }}
limits = {{ max_divergent = 0, min_simd_efficiency = 0.98, min_sector_efficiency = 0.6 }}
[[kernel.line]]
line = 99
[[kernel]]
name = "guard"
file = "{zoo}/tiled_matmul_barrier_in_guard.cu"
grid = [7, 7]
block = [16, 16]
args = {{ Width = 100 }}
''', 1)
        passing = check(f'''[[kernel]]
file = "{zoo}/strided_load.cu"
grid = 8
block = 128
args = {{ n = 1000, stride = 3 }}
''', 0)
        # A kernel with a statement after multi-byte UTF-8 text, a suppression comment, the
        # single-lane idiom; another that does not compile; a configuration in a folder named
        # with byte 0xE9.
        with open(os.path.join(tmp, "u.cu"), "w", encoding="utf-8") as f:
            f.write("__global__ void u(int *out, int n) {\n"
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  /* \u00e9\U0001d11e */ if (i < n) out[i] = 1;\n"
                    "  // warpdiv: allow(divergence)\n"
                    "  if (i < n - 1) out[i] += 1;\n"
                    "  if (threadIdx.x == 0) out[blockIdx.x] = 2;\n"
                    "}\n")
        with open(os.path.join(tmp, "broken.cu"), "w") as f:
            f.write("__global__ void broken(int *o) { o[threadIdx.x] = ; }\n")
        # Two launches read from main() that cannot be taken: an argument computed from atoi (the
        # argument n at 5:16, on the line after the launch's), a launch under a condition known
        # false (k at 4:15).
        kernel = "__global__ void k(float *o, int n) { if (threadIdx.x < n) o[threadIdx.x] = 1; }\n"
        with open(os.path.join(tmp, "atoi.cu"), "w") as f:
            f.write(kernel + "#include <cstdlib>\nint main() {\n  float *o; k<<<1, 64>>>(o,\n"
                    "               atoi(\"5\"));\n}\n")
        with open(os.path.join(tmp, "never.cu"), "w") as f:
            f.write(kernel + "int main() {\n  float *o; int n = 5;\n  if (n == 4) k<<<1, 64>>>(o, n);\n}\n")
        latin = os.path.join(tmp.encode(), b"d\xe9")
        os.mkdir(latin)
        edge = check(f'''root = "{tmp}"
[[kernel]]
file = "{tmp}/u.cu"
grid = 4
block = 64
args = {{ n = 100 }}
alloc = {{ out = 256 }}
limits = {{ max_divergent = 0, report_single_lane = true }}
[[kernel.statement]]
statement = "nothing()"
[[kernel]]
file = "{tmp}/broken.cu"
grid = 1
block = 32
[[kernel]]
file = "{tmp}/atoi.cu"
[[kernel]]
file = "{tmp}/never.cu"
''', 1, latin)
        docs = (("failing", failing), ("passing", passing), ("edge", edge))
        for name, doc in docs:
            errors = sorted(validator.iter_errors(doc), key=str)
            expect(not errors, f"the {name} run's SARIF is not valid: {errors[:3]}")

        run = failing["runs"][0]
        expect(failing["version"] == "2.1.0", "version 2.1.0")
        driver = run["tool"]["driver"]
        expect(driver["name"] == "warpdiv", "driver name")
        rule_ids = [r["id"] for r in driver["rules"]]
        results = run["results"]
        by_rule = {}
        for r in results:
            expect(rule_ids[r["ruleIndex"]] == r["ruleId"], f"ruleIndex of {r['ruleId']}")
            by_rule.setdefault(r["ruleId"], []).append(r)
        expect(sorted(by_rule) == ["divergent-evaluations", "partial-barrier", "sector-efficiency",
                                   "simd-efficiency", "unused-line-limits"],
               f"rules found: {sorted(by_rule)}")
        branch = by_rule["divergent-evaluations"][0]
        location = branch["locations"][0]["physicalLocation"]
        expect(location["artifactLocation"] == {"uri": "kernels/zoo/strided_load.cu",
                                                "uriBaseId": "%SRCROOT%"},
               f"artifact location {location['artifactLocation']}")
        # `if (i < n)`: the `if` at 9:3 up to the header's `)`, column 12; SARIF's endColumn is
        # the column after it.
        expect(location["region"] == {"startLine": 9, "startColumn": 3, "endLine": 9,
                                      "endColumn": 13}, f"region {location['region']}")
        expect(branch["properties"]["divergent"] == 1 and
               branch["properties"]["warp_evaluations"] == 32, f"{branch['properties']}")
        expect(branch["level"] == "warning", "level warning")
        sectors = by_rule["sector-efficiency"][0]["properties"]
        expect(sectors["global_sectors"] == 500 and sectors["global_bytes"] == 8000 and
               sectors["sector_efficiency"] == 0.5, f"sector figures {sectors}")
        expect([r["properties"]["partial_block_executions"] for r in by_rule["partial-barrier"]]
               == [91, 91], "partial barriers 91 and 91")
        expect(by_rule["unused-line-limits"][0]["level"] == "note", "unused line limits: a note")
        expect(run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file://" + root + "/",
               "%SRCROOT% is the configuration's root")
        expect(passing["runs"][0]["results"] == [], "no results when every limit holds")

        # The validator must reject what the schema forbids.
        def broken(change):
            doc = copy.deepcopy(failing)
            change(doc)
            return doc

        def drop_version(doc):
            del doc["version"]

        def bad_level(doc):
            doc["runs"][0]["results"][0]["level"] = "fatal"

        def line_zero(doc):
            doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0

        def message_without_text(doc):
            doc["runs"][0]["results"][0]["message"] = {}

        for change in (drop_version, bad_level, line_zero, message_without_text):
            expect(not validator.is_valid(broken(change)),
                   f"the validator accepted a document with {change.__name__}")
        check_edge(edge)
    if failures:
        print(f"{len(failures)} checks failed")
        return 1
    print("SARIF valid against the SARIF 2.1.0 schema; broken documents rejected")
    return 0


def check_edge(edge):
    """The edge run's results: UTF-16 columns, the suppression, the single-lane rule, the unreadable
    kernels (at their diagnostics' places), the configuration's folder percent-encoded."""
    results = edge["runs"][0]["results"]
    expect(edge["runs"][0]["columnKind"] == "utf16CodeUnits", "columnKind utf16CodeUnits")
    by_line = {}
    for r in results:
        region = r["locations"][0]["physicalLocation"].get("region", {})
        by_line.setdefault((r["ruleId"], region.get("startLine")), []).append(r)
    # Line 3: `if` after "  /* " (5 units), e-acute (1 unit, 2 bytes), U+1D11E (2 units, 4 bytes)
    # and " */ " (4): UTF-16 column 13 (byte column 16); `if (i < n)` ends at unit 22, its `)`:
    # endColumn 23.
    first = by_line.get(("divergent-evaluations", 3), [None])[0]
    expect(first is not None, f"a finding at line 3: {sorted(by_line)}")
    if first:
        region = first["locations"][0]["physicalLocation"]["region"]
        expect(region == {"startLine": 3, "startColumn": 13, "endLine": 3, "endColumn": 23},
               f"line 3's region in UTF-16 units: {region}")
    allowed = by_line.get(("divergent-evaluations", 5), [None])[0]
    expect(allowed is not None and allowed.get("suppressions") == [
        {"kind": "inSource", "justification": "a warpdiv: allow(...) comment"}],
        f"line 5's finding suppressed in source: {allowed}")
    single = by_line.get(("single-lane-branch", 6), [])
    expect(len(single) == 1 and single[0]["properties"]["rule"] == "divergent-evaluations",
           f"line 6's if (threadIdx.x == 0): one single-lane finding {single}")
    unreadable = [r for r in results if r["ruleId"] == "warpdiv-source-errors"]
    # At Clang's first error: the `;` where an expression should be, line 1, column 51.
    expect(len(unreadable) == 1 and unreadable[0]["level"] == "error" and
           unreadable[0]["locations"][0]["physicalLocation"].get("region") ==
           {"startLine": 1, "startColumn": 51} and
           unreadable[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "broken.cu",
           f"the unreadable kernel: {unreadable}")
    # The launches main() makes that cannot be read: at the place each message names.
    for rule, uri, level, region in (
            ("warpdiv-host-value-unknown", "atoi.cu", "warning", {"startLine": 5, "startColumn": 16}),
            ("warpdiv-kernel-choice", "never.cu", "error", {"startLine": 4, "startColumn": 15})):
        found = [r for r in results if r["ruleId"] == rule]
        location = found[0]["locations"][0]["physicalLocation"] if len(found) == 1 else {}
        expect(len(found) == 1 and found[0]["level"] == level and location.get("region") == region and
               location["artifactLocation"]["uri"] == uri, f"the unreadable {uri}: {found}")
    unused = [r for r in results if r["ruleId"] == "unused-line-limits"]
    expect(len(unused) == 1 and
           unused[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "d%E9/c.toml",
           f"the note at the configuration in d\\xe9: {unused}")


if __name__ == "__main__":
    sys.exit(main())
