"""Prometheus metrics for the server, in their own registry (so two apps in one process, as in tests,
never collide and the process-wide default collectors stay out of the way).

Counters: requests by endpoint and status, prompt / completion / accepted / rejected prediction
tokens, cancelled generations. Histograms: request latency, time to first token, time waiting in the
queue. Gauges: requests waiting for the model and running on it.

This module knows metric names and prometheus_client; nothing about HTTP frameworks or models.
"""

from __future__ import annotations

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from fastapply.decoding.stats import DecodeStats

# latency of an edit spans milliseconds (instant merge) to a minute (a long file on a CPU)
_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120)


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        r = self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter("fastapply_requests", "HTTP requests answered", ["endpoint", "status"], registry=r)
        self.prompt_tokens = Counter("fastapply_prompt_tokens", "Prompt tokens processed", registry=r)
        self.completion_tokens = Counter("fastapply_completion_tokens", "Completion tokens generated", registry=r)
        self.accepted = Counter(
            "fastapply_accepted_prediction_tokens", "Drafted (predicted) tokens the model accepted", registry=r
        )
        self.rejected = Counter(
            "fastapply_rejected_prediction_tokens", "Drafted (predicted) tokens the model verified and rejected",
            registry=r,
        )
        self.forward_passes = Counter("fastapply_forward_passes", "Model forward passes", registry=r)
        self.cancelled = Counter("fastapply_cancelled_generations", "Generations stopped because the client left", registry=r)
        self.latency = Histogram(
            "fastapply_request_latency_seconds", "Time from request to last byte", ["endpoint"],
            buckets=_LATENCY_BUCKETS, registry=r,
        )
        self.ttft = Histogram(
            "fastapply_time_to_first_token_seconds", "Decoder time to first token (after the queue)",
            buckets=_LATENCY_BUCKETS, registry=r,
        )
        self.queue_wait = Histogram(
            "fastapply_queue_wait_seconds", "Time a request waited for the model", buckets=_LATENCY_BUCKETS, registry=r
        )
        self.waiting = Gauge("fastapply_queue_depth", "Requests waiting for the model", registry=r)
        self.running = Gauge("fastapply_running", "Requests running on the model (0 or 1)", registry=r)

    def set_depth(self, waiting: int, running: int) -> None:
        self.waiting.set(waiting)
        self.running.set(running)

    def observe_decode(self, stats: DecodeStats, queue_s: float) -> None:
        self.prompt_tokens.inc(stats.prompt_tokens)
        self.completion_tokens.inc(stats.completion_tokens)
        self.accepted.inc(stats.accepted_prediction_tokens)
        self.rejected.inc(stats.rejected_prediction_tokens)
        self.forward_passes.inc(stats.forward_passes)
        if stats.forward_passes:
            self.ttft.observe(stats.time_to_first_token_s)
        self.queue_wait.observe(queue_s)

    def observe_request(self, endpoint: str, status: int, seconds: float) -> None:
        self.requests.labels(endpoint=endpoint, status=str(status)).inc()
        self.latency.labels(endpoint=endpoint).observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)
