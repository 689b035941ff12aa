import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=30, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
# A long run for the fuzz properties that use the profile's example count (the setup fuzzing):
# HYPOTHESIS_PROFILE=long, with LIBERTALIA_FUZZ_EXAMPLES examples (2,000 unless told).
settings.register_profile("long", max_examples=int(os.environ.get("LIBERTALIA_FUZZ_EXAMPLES") or 2000),
                          deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
