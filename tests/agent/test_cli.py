"""The `hugginggpt` console script, run as a user would (a subprocess), with real engines."""

import json
import re
import subprocess
import sys

from PIL import Image, ImageDraw


def hugginggpt(*args, cwd, home):
    env_cmd = [sys.executable, "-m", "langchain_hugginggpt.cli.main", *args]
    return subprocess.run(env_cmd, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=300,
                          env={**__import__("os").environ, "HUGGINGGPT_HOME": str(home), "HF_HUB_OFFLINE": "1"})


def test_run_json_prints_one_object_with_every_stage(tmp_path):
    img = Image.new("RGB", (96, 96), "white")
    ImageDraw.Draw(img).rectangle([24, 24, 72, 72], fill="black")
    img.save(tmp_path / "square.png")
    proc = hugginggpt("run", "Give me the canny edge map of square.png", "--planner", "retrieval", "--json",
                      cwd=tmp_path, home=tmp_path / "home")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)  # stdout holds the JSON object and nothing else
    assert {"plan", "selections", "results", "answer", "timings"} <= set(result)
    assert [t["task"] for t in result["plan"]] == ["canny-control"]
    task = result["results"]["0"]
    assert task["status"] == "ok" and task["files"][0].startswith(str(tmp_path / "outputs"))
    assert result["selections"]["0"]["model_id"] == task["model_id"]
    assert task["files"][0] in result["answer"]
    log = (tmp_path / "home" / "runs.jsonl").read_text().splitlines()
    assert json.loads(log[-1])["request"] == "Give me the canny edge map of square.png"


def test_run_shows_each_stage_on_stderr_and_the_answer_on_stdout(tmp_path):
    """The progress lines come from the stage events' typed fields: the plan, each task's model and why, each
    task's outcome and files."""
    img = Image.new("RGB", (96, 96), "white")
    ImageDraw.Draw(img).rectangle([24, 24, 72, 72], fill="black")
    img.save(tmp_path / "square.png")
    proc = hugginggpt("run", "Give me the canny edge map of square.png", "--planner", "retrieval", "--responder",
                      "template", cwd=tmp_path, home=tmp_path / "home")
    assert proc.returncode == 0, proc.stderr
    said = "".join(proc.stderr.split())  # rich wraps long lines, a long path inside itself
    assert "plan(retrieval):0:canny-control" in said
    assert "modelfortask0:opencv-canny(onlyonemodelavailable)" in said
    edges = str(tmp_path / "outputs")
    assert re.search(rf"task0canny-control:okin\d+\.\d\ds{re.escape(edges)}/\S+?\.png", said), said
    assert proc.stdout.startswith("Canny edge map written to " + edges)


def test_missing_file_is_reported_not_crashed(tmp_path):
    proc = hugginggpt("run", "Give me the canny edge map of ghost.png", "--planner", "retrieval", "--json",
                      cwd=tmp_path, home=tmp_path / "home")
    result = json.loads(proc.stdout)
    assert result["results"]["0"]["status"] == "error"
    assert "ghost.png" in result["results"]["0"]["error"] and "not found" in result["results"]["0"]["error"]
    assert proc.returncode == 1  # every task failed: a script must be able to tell


def test_an_empty_or_overlong_request_is_refused_by_name(tmp_path):
    for request, problem in (("  ", "request: the request is empty"),
                             ("good " * 5000, "request: the request is 25,000 characters long; at most 20,000")):
        proc = hugginggpt("run", request, "--planner", "retrieval", cwd=tmp_path, home=tmp_path / "home")
        assert proc.returncode == 2 and problem in proc.stderr and "pydantic" not in proc.stderr, proc.stderr


def test_tasks_json_lists_every_task_with_availability(tmp_path):
    proc = hugginggpt("tasks", "--json", cwd=tmp_path, home=tmp_path / "home")
    assert proc.returncode == 0, proc.stderr
    rows = {row["task"]: row for row in json.loads(proc.stdout)}
    assert {"object-detection", "text-to-speech", "canny-control", "openpose-text-to-image"} <= set(rows)
    for row in rows.values():
        assert set(row) >= {"task", "inputs", "available", "models"}
        assert row["available"] == bool(row["models"])
    assert rows["canny-control"]["available"] and "opencv-canny" in rows["canny-control"]["models"]
    # a stand-in never counts as the task's model
    assert "opencv-lsd-lines" not in rows["mlsd-control"]["models"]


def test_bad_arguments_give_a_one_line_error(tmp_path):
    proc = hugginggpt("run", "hello", "--llm", "nonsense:x", cwd=tmp_path, home=tmp_path / "home")
    assert proc.returncode == 2 and "unknown LLM preset" in proc.stderr and "Traceback" not in proc.stderr


def test_a_request_with_bytes_that_are_not_utf8_is_answered_and_logged(tmp_path):
    # A terminal in another encoding passes bytes Python keeps as lone surrogates: the run log must not
    # fail on them after the answer was computed.
    proc = hugginggpt("run", "Sentiment of: 'a really great \udcff day'", "--planner", "retrieval",
                      "--responder", "template", "--json", cwd=tmp_path, home=tmp_path / "home")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["results"]["0"]["status"] == "ok" and "POSITIVE" in result["results"]["0"]["output"]["text"]
    logged = json.loads((tmp_path / "home" / "runs.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert logged["request"] == "Sentiment of: 'a really great ? day'"


def test_numbers_files_and_ids_that_cannot_mean_anything_are_refused_by_name(tmp_path):
    (tmp_path / "binary.jsonl").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "numbers.json").write_text("[1, 2]")
    (tmp_path / "folder").mkdir()
    (tmp_path / "note.txt").write_text("not a folder")
    cases = [  # (arguments, what stderr must say)
        (["logs", "--last", "0"], "argument --last: must be 1 or more, not 0"),
        (["eval", "taskbench", "--limit", "-1"], "argument --limit: must be 1 or more, not -1"),
        (["models", "search", "sentiment", "--k", "0"], "argument --k: must be 1 or more, not 0"),
        (["models", "add", "a/b", "--task", "text-classification", "--description", "x", "--downloads", "-5"],
         "argument --downloads: must be 0 or more, not -5"),
        (["models", "add", "", "--task", "text-classification", "--description", "x"], "empty id"),
        (["serve", "--port", "99999"], "a port is 1 to 65535, not 99999"),
        (["serve", "--max-upload-mb", "-1"], "argument --max-upload-mb: must be more than 0, not -1"),
        (["serve", "--workspace", "note.txt"], "'note.txt' is a file; give a folder"),
        (["run", "hello", "--workspace", "note.txt"], "'note.txt' is a file; give an existing folder"),
        (["run", "hello", "--workspace", "missing"], "'missing' is no such folder"),
        (["replay", ""], "no run id given"),
        (["models", "import", "binary.jsonl"], "binary.jsonl: not UTF-8 text (byte 0xff at offset 0)"),
        (["models", "import", "folder"], "folder: it is a folder"),
        (["eval", "taskbench", "binary.jsonl"], "cannot read TaskBench data binary.jsonl"),
        (["eval", "taskbench", "folder"], "TaskBench data file folder is a folder"),
        (["eval", "taskbench", "--tools", "numbers.json"], "numbers.json is not a TaskBench tool list"),
    ]
    for args, problem in cases:
        proc = hugginggpt(*args, cwd=tmp_path, home=tmp_path / "home")
        said = " ".join(proc.stderr.split())  # rich wraps long lines
        assert proc.returncode == 2 and problem in said and "Traceback" not in said, (args, proc.stderr)


def test_a_text_file_the_request_names_is_what_the_step_reads(tmp_path):
    (tmp_path / "review.txt").write_text("What a wonderful, delightful evening. The food was excellent and the staff "
                                         "were lovely.", encoding="utf-8")
    (tmp_path / "scan.txt").write_bytes(b"\xff\xfe\x00 not text")
    proc = hugginggpt("run", "What is the sentiment of review.txt?", "--responder", "template", "--json",
                      cwd=tmp_path, home=tmp_path / "home")
    result = json.loads(proc.stdout)
    assert proc.returncode == 0, proc.stderr
    assert result["plan"][0]["args"]["text"] == "review.txt"  # the plan names the file; the step reads it
    assert result["results"]["0"]["output"]["text"].startswith("POSITIVE")
    for name, problem in (("scan.txt", "text file 'scan.txt' is not UTF-8 text (byte 0xff at offset 0)"),
                          ("gone.txt", "input file 'gone.txt' not found in the workspace")):
        proc = hugginggpt("run", f"What is the sentiment of {name}?", "--responder", "template", "--json",
                          cwd=tmp_path, home=tmp_path / "home")
        assert proc.returncode == 1 and problem in json.loads(proc.stdout)["results"]["0"]["error"]


def test_a_cut_short_run_log_line_is_skipped_by_name_and_the_next_run_starts_a_fresh_line(tmp_path):
    """A process killed while writing leaves half a line: `logs` still lists the other runs, and the next run's
    record is not glued to the broken one."""
    home = tmp_path / "home"
    Image.new("RGB", (32, 32), "white").save(tmp_path / "a.png")
    first = hugginggpt("run", "Give me the canny edge map of a.png", "--planner", "retrieval", "--json",
                       cwd=tmp_path, home=home)
    assert first.returncode == 0, first.stderr
    log = home / "runs.jsonl"
    good = log.read_text(encoding="utf-8")
    log.write_text(good + good[: len(good) // 2] + "\n" + '{"id": "x1"}\n', encoding="utf-8")
    listed = hugginggpt("logs", cwd=tmp_path, home=home)
    assert listed.returncode == 0, listed.stderr
    assert json.loads(good)["id"] in listed.stdout and "x1" in listed.stdout
    assert "runs.jsonl line 2 skipped: not a JSON record" in listed.stderr
    replay = hugginggpt("replay", "x1", cwd=tmp_path, home=home)  # a record without its request
    assert replay.returncode != 0 and "logged run x1 has no request" in " ".join(replay.stderr.split())
    log.write_text(good + good[: len(good) // 2], encoding="utf-8")  # cut short, no line end
    again = hugginggpt("run", "Give me the canny edge map of a.png", "--planner", "retrieval", "--json",
                       cwd=tmp_path, home=home)
    assert again.returncode == 0, again.stderr
    last = log.read_text(encoding="utf-8").splitlines()[-1]
    assert json.loads(last)["request"] == "Give me the canny edge map of a.png"


def test_option_and_path_mistakes_are_named(tmp_path):
    (tmp_path / "dir.png").mkdir()
    (tmp_path / "runs.jsonl").write_text('{"id": "x"}\n' * 200)
    for args, problem in (
            (["chat", "--checkpoints", str(tmp_path / "runs.jsonl")],
             f"checkpoints file {tmp_path / 'runs.jsonl'} is not a SQLite database"),
            (["train", "planner", "--c", "-1"], "argument --c: must be more than 0, not -1"),
            (["train", "planner", "--threshold", "nan"], "argument --threshold: must be between 0 and 1, not nan"),
            (["chat", "--json"], "unrecognized arguments: --json"),
            (["tasks", "--json", "--markdown"], "argument --markdown: not allowed with argument --json"),
            (["run", "hi", "--llm", "hf:/nonexistent/dir", "--planner", "llm"],
             "the hf: preset's folder /nonexistent/dir not found"),
            (["chat", "--checkpoints", str(tmp_path)], f"checkpoints file {tmp_path} is a folder")):
        proc = hugginggpt(*args, cwd=tmp_path, home=tmp_path / "home")
        assert proc.returncode == 2 and problem in " ".join(proc.stderr.split()), (args, proc.stderr)
    folder = hugginggpt("run", "Give me the canny edge map of dir.png", "--planner", "retrieval", "--json",
                        cwd=tmp_path, home=tmp_path / "home")
    assert "input 'dir.png' is a folder, not a file" in json.loads(folder.stdout)["results"]["0"]["error"]


def test_replay_reads_the_run_s_own_workspace_and_refuses_a_chat_reply(tmp_path):
    work, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    work.mkdir(), elsewhere.mkdir()
    Image.new("RGB", (32, 32), "white").save(work / "a.png")
    Image.new("RGB", (32, 32), "black").save(elsewhere / "a.png")  # same name, another picture
    home = tmp_path / "home"
    first = hugginggpt("run", "Give me the canny edge map of a.png", "--planner", "retrieval", "--responder",
                       "template", cwd=work, home=home)
    assert first.returncode == 0, first.stderr
    record = json.loads((home / "runs.jsonl").read_text().splitlines()[-1])
    assert record["workspace"] == str(work.resolve())
    again = hugginggpt("replay", record["id"], "--json", "--no-log", cwd=elsewhere, home=home)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["results"]["0"]["files"][0].startswith(str(work.resolve() / "outputs"))
    chat = hugginggpt("run", "hello there", "--planner", "retrieval", "--responder", "template", cwd=work, home=home)
    chat_id = json.loads((home / "runs.jsonl").read_text().splitlines()[-1])["id"]
    refused = hugginggpt("replay", chat_id, cwd=work, home=home)
    assert chat.returncode == 0 and refused.returncode == 2
    assert "planned no task (a chat reply)" in " ".join(refused.stderr.split())


def test_a_run_logs_the_turns_just_before_not_the_whole_conversation(tmp_path):
    """Each line held every earlier turn: a 60-turn chat's runs.jsonl reached 52 MB, one line 1.16 MB (QA probe)."""
    from langchain_hugginggpt.agent.run_log import LOGGED_TURNS, append_run, read_runs
    from langchain_hugginggpt.core.schema import HuggingGPTResult

    history = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i} " + "x" * 1000} for i in range(120)]
    log = tmp_path / "runs.jsonl"
    append_run(HuggingGPTResult(request="and again", answer="done"), chat_history=history, path=log)
    [record] = list(read_runs(log))
    assert record["chat_history"] == history[-LOGGED_TURNS:] and record["chat_history_length"] == 120
    assert log.stat().st_size < 20_000


def test_a_misspelt_option_is_named_with_its_command_s_usage_and_a_likely_spelling(capsys):
    """'run --planer learned hi' printed the top-level usage and took 'learned' as the request."""
    import pytest

    from langchain_hugginggpt.cli.main import main

    for argv, command, hint in ((["run", "--planer", "learned", "hi"], "hugginggpt run", "--planner"),
                                (["eval", "taskbench", "--predicitons", "x.jsonl"], "hugginggpt eval taskbench",
                                 "--predictions")):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        err = capsys.readouterr().err
        assert exited.value.code == 2 and f"usage: {command}" in err
        assert f"did you mean {hint}?" in err
