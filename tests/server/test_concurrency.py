"""20 concurrent requests to the real server: every one completes, and each caller gets
the answer to its own request (its own words, and the edge map of its own image)."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .conftest import canny, fetch_image, shape_image, upload


def test_twenty_concurrent_requests_each_get_their_own_answer(server, client, tmp_path):
    sources = [shape_image(tmp_path / f"job{i}.png", i) for i in range(20)]
    paths = [upload(client, source)["path"] for source in sources]

    def ask(i: int) -> dict:
        with server.client() as http:  # one connection per caller
            request = f"Job {i}: make an edge map of {paths[i]}"
            response = http.post("/hugginggpt", json={"messages": [{"role": "user", "content": request}]})
            assert response.status_code == 200, response.text
            return {"request": request, **response.json()}

    with ThreadPoolExecutor(max_workers=20) as pool:
        replies = list(pool.map(ask, range(20)))

    for i, reply in enumerate(replies):
        assert reply["message"].startswith(f"Edge map ready for: {reply['request']}")
        [produced] = reply["files"]
        assert produced["path"] in reply["message"]
        assert np.array_equal(fetch_image(client, produced["url"]), canny(sources[i])), i
    assert len({r["files"][0]["path"] for r in replies}) == 20
