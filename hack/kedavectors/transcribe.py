#!/usr/bin/env python3
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Writes pkg/keda/testdata/vectors/*.json: KEDA's own unit tests, transcribed
# by hand into neutral test vectors. Every input and every expectation below
# was read from the named upstream test (kedacore/keda v2.20.2 and v2.21.0,
# the two releases whose tests are identical for these cases unless a vector
# lists one release only); none was computed by running kubectl-hpa. See
# pkg/keda/testdata/vectors/README.md for the schema and the skipped tests.
#
# Usage: python3 hack/kedavectors/transcribe.py   (from the repository root)

import json
import os
import re

OUT = os.path.join("pkg", "keda", "testdata", "vectors")
BOTH = ["v2.20.2", "v2.21.0"]
V21 = ["v2.21.0"]
NOW = "2025-01-01T12:00:00Z"

# The conditions GetInitializedConditions gives a new object.
INIT_CONDITIONS = [
    {"type": "Ready", "status": "Unknown"},
    {"type": "Active", "status": "Unknown"},
    {"type": "Fallback", "status": "Unknown"},
    {"type": "Paused", "status": "False"},
]


def slug(s):
    s = re.sub(r"[^A-Za-z0-9]+", "-", s).strip("-").lower()
    return s


def so(name="name", ns="namespace", target="name", annotations=None, min=None, max=None, idle=None,
       triggers=None, fallback=None, advanced=None, status=None, labels=None, polling=None,
       gvkr=True, conditions=True):
    """A ScaledObject as the upstream test builds it."""
    meta = {"name": name}
    if ns:
        meta["namespace"] = ns
    if annotations is not None:
        meta["annotations"] = annotations
    if labels is not None:
        meta["labels"] = labels
    spec = {"scaleTargetRef": {"name": target}}
    for k, v in (("minReplicaCount", min), ("maxReplicaCount", max), ("idleReplicaCount", idle),
                 ("pollingInterval", polling)):
        if v is not None:
            spec[k] = v
    spec["triggers"] = triggers if triggers is not None else []
    if fallback is not None:
        spec["fallback"] = fallback
    if advanced is not None:
        spec["advanced"] = advanced
    st = dict(status or {})
    if gvkr:
        st.setdefault("scaleTargetGVKR", {"group": "apps", "version": "", "kind": "Deployment", "resource": ""})
    if conditions:
        st.setdefault("conditions", INIT_CONDITIONS)
    return {"apiVersion": "keda.sh/v1alpha1", "kind": "ScaledObject", "metadata": meta, "spec": spec, "status": st}


CRON_UTC = {"timezone": "UTC", "start": "0 * * * *", "end": "1 * * * *", "desiredReplicas": "1"}


def cron_trigger(**kw):
    t = {"type": "cron", "metadata": dict(CRON_UTC)}
    t.update(kw)
    return t


vectors = {}


def add(file, v):
    # Case names that differ only in punctuation get a counter.
    ids = {x["id"] for x in vectors.get(file, [])}
    base, n = v["id"], 2
    while v["id"] in ids:
        v["id"] = "%s-%d" % (base, n)
        n += 1
    vectors.setdefault(file, []).append(v)


# --------------------------------------------------------------------------
# executor.json: pkg/scaling/executor/scale_scaledobjects_test.go, RequestScale
# with isActive/isError given (the executor's own inputs).
EXE = "pkg/scaling/executor/scale_scaledobjects_test.go"


def executor(test, obj, current, active, error, expect, active_triggers=None, hpa=None, versions=BOTH, notes=None):
    v = {"id": "executor-" + slug(test), "source": EXE + " " + test, "versions": versions, "level": "executor",
         "now": NOW, "scaledObject": obj, "currentReplicas": current, "isActive": active, "isError": error,
         "expect": expect}
    if active_triggers:
        v["activeTriggers"] = active_triggers
    if hpa is not None:
        v["hpaCondition"] = hpa
    if notes:
        v["notes"] = notes
    add("executor.json", v)


ACTIVE_MSG = "Scaling is performed because triggers are active"
executor("TestScaleToMinReplicasWhenNotActive", so(min=0), 10, False, False,
         {"scaledTo": 0, "conditions": {"Active": {"status": "False"}}})
executor("TestScaleToMinReplicasFromLowerInitialReplicaCount", so(min=5), 1, False, False,
         {"scaledTo": 5, "conditions": {"Active": {"status": "False"}}})
executor("TestScaleFromMinReplicasWhenActive", so(min=0), 0, True, False,
         {"scaledTo": 1, "lastActiveTimeSet": True,
          "conditions": {"Active": {"status": "True", "reason": "ScalerActive", "message": ACTIVE_MSG}}})
executor("TestScaleToIdleReplicasWhenNotActive", so(min=5, idle=0), 10, False, False,
         {"scaledTo": 0, "conditions": {"Active": {"status": "False"}}})
executor("TestScaleFromIdleToMinReplicasWhenActive", so(min=5, idle=0), 0, True, False,
         {"scaledTo": 5, "lastActiveTimeSet": True,
          "conditions": {"Active": {"status": "True", "reason": "ScalerActive", "message": ACTIVE_MSG}}})
executor("TestScaleToPausedReplicasCount", so(annotations={"autoscaling.keda.sh/paused-replicas": "0"}), 2, True, False,
         {"scaledTo": None, "conditions": {"Paused": {"status": "True"}}, "notTrue": ["Active"]},
         notes="the executor only marks the object paused; the controller (controller.json) scales to the paused count")
executor("TestEventWitTriggerInfo", so(min=5, idle=0, conditions=False), 2, True, False,
         {"scaledTo": 5, "events": [{"type": "Normal", "reason": "KEDAScaleTargetActivated",
                                     "message": "Scaled  namespace/name from 2 to 5, triggered by testTrigger"}]},
         active_triggers=["testTrigger"],
         notes="upstream reads the event as 'Normal KEDAScaleTargetActivated <message>'; status.scaleTargetKind is empty, hence the two spaces")
executor("TestNoScaleToMinReplicasWhenNotActiveAndPauseScaleInAnnotationSet",
         so(min=0, annotations={"autoscaling.keda.sh/paused-scale-in": "true"}), 10, False, False,
         {"scaledTo": None, "conditions": {"Active": {"status": "False"}}})
executor("TestNoScaleToIdleReplicasWhenNotActiveAndPauseScaleInAnnotationSet",
         so(min=5, idle=0, annotations={"autoscaling.keda.sh/paused-scale-in": "true"}), 10, False, False,
         {"scaledTo": None, "conditions": {"Active": {"status": "False"}}})
executor("TestScaleFromMinReplicasWhenActivationForced",
         so(min=0, annotations={"autoscaling.keda.sh/force-activation": "true"}), 0, False, False,
         {"scaledTo": 1, "lastActiveTimeSet": True,
          "conditions": {"Active": {"status": "True", "reason": "ScalerActive",
                                    "message": "Scaling is performed because activation is being forced by annotation"}}})
executor("TestNoScaleFromMinReplicasWhenActiveAndPausedScaleOutAnnotationSet",
         so(min=0, annotations={"autoscaling.keda.sh/paused-scale-out": "true"}), 0, True, False,
         {"scaledTo": None, "conditions": {"Active": {"status": "True"}}})
executor("TestNoScaleFromIdleReplicasToMinReplicasWhenActiveAndPausedScaleOutAnnotationSet",
         so(min=5, max=10, idle=0, annotations={"autoscaling.keda.sh/paused-scale-out": "true"}), 0, True, False,
         {"scaledTo": None, "conditions": {"Active": {"status": "True"}}})


def so_with_hpa(**kw):
    st = {"hpaName": "my-hpa"}
    st.update(kw.pop("status", {}))
    return so(name="test-so", ns="test-ns", target="test-deploy", min=1, status=st, **kw)


HEALTHY = {"status": "True"}
UNHEALTHY = {"status": "False", "reason": "FailedGetExternalMetric", "message": "metrics not available"}
UNHEALTHY_EXPECT = {"status": "False", "reason": "FailedGetExternalMetric",
                    "message": "HPA is not actively scaling: metrics not available"}
executor("TestRequestScale_AllHealthy_HPAHealthy", so_with_hpa(), 1, True, False,
         {"scaledTo": None, "conditions": {"Ready": {"status": "True", "reason": "ScaledObjectReady"}}}, hpa=HEALTHY)
executor("TestRequestScale_ScalerError_HPAHealthy", so_with_hpa(), 1, False, True,
         {"scaledTo": None, "conditions": {"Ready": {"status": "False", "reason": "TriggerError"}}}, hpa=HEALTHY)
executor("TestRequestScale_PartialError_HPAHealthy", so_with_hpa(), 1, True, True,
         {"scaledTo": None, "conditions": {"Ready": {"status": "Unknown", "reason": "PartialTriggerError"}}}, hpa=HEALTHY)
executor("TestRequestScale_NoError_HPAUnhealthy", so_with_hpa(), 1, True, False,
         {"scaledTo": None, "conditions": {"Ready": {"status": "True", "reason": "ScaledObjectReady"},
                                           "HPAActive": UNHEALTHY_EXPECT}}, hpa=UNHEALTHY)
executor("TestRequestScale_ScalerError_HPAUnhealthy", so_with_hpa(), 1, False, True,
         {"scaledTo": None, "conditions": {"Ready": {"status": "False", "reason": "TriggerError"},
                                           "HPAActive": UNHEALTHY_EXPECT}}, hpa=UNHEALTHY)
ready_true = [dict(c) for c in INIT_CONDITIONS]
ready_true[0] = {"type": "Ready", "status": "True", "reason": "ScaledObjectReady",
                 "message": "ScaledObject is defined correctly and is ready for scaling"}
executor("TestRequestScale_TransientHPAGap_ReadyStaysTrue", so_with_hpa(status={"conditions": ready_true}), 1, True, False,
         {"scaledTo": None, "conditions": {"Ready": {"status": "True"}, "HPAActive": UNHEALTHY_EXPECT}}, hpa=UNHEALTHY)
executor("TestRequestScale_HPAHealthy_HPAActiveTrue", so_with_hpa(), 1, True, False,
         {"scaledTo": None, "conditions": {"HPAActive": {"status": "True", "reason": "HPAActive",
                                                         "message": "HPA is actively scaling"}}}, hpa=HEALTHY)
DISABLED_MSG = "scaling is disabled since the replica count of the target is zero"
executor("TestRequestScale_HPAScalingDisabled_HPAActiveTrueWithDistinctReason", so_with_hpa(), 1, True, False,
         {"scaledTo": None, "conditions": {"HPAActive": {"status": "True", "reason": "ScalingDisabled",
                                                         "message": DISABLED_MSG}}},
         hpa={"status": "False", "reason": "ScalingDisabled", "message": DISABLED_MSG})
executor("TestRequestScale_ScalerErrorWithFallback_HPAHealthy",
         so_with_hpa(fallback={"failureThreshold": 0, "replicas": 5}), 1, False, True,
         {"scaledTo": None, "conditions": {"Ready": {"status": "True"}}}, hpa=HEALTHY)

# --------------------------------------------------------------------------
# hpa_health.json: getHPAHealth / checkHPAHealth (same file). hpaCondition is
# the HPA's ScalingActive condition; null when the HPA cannot be observed.


def hpa_health(test, hpa_name, cond, expect, notes=None):
    v = {"id": "hpa-health-" + slug(test), "source": EXE + " " + test, "versions": BOTH, "level": "hpaHealth",
         "hpaName": hpa_name, "hpaCondition": cond, "expect": expect}
    if notes:
        v["notes"] = notes
    add("hpa_health.json", v)


hpa_health("TestGetHPAHealth_NoHPAName", "", {"status": "True"}, {"status": ""},
           notes="the HPA is not read at all without a name; any condition is ignored")
hpa_health("TestGetHPAHealth_HPAReadError", "my-hpa", None, {"status": ""}, notes="read error: not observed (null)")
hpa_health("TestGetHPAHealth_ScalingActiveTrue", "my-hpa", {"status": "True"},
           {"status": "True", "reason": "HPAActive", "message": "HPA is actively scaling"})
hpa_health("TestGetHPAHealth_ScalingActiveFalse", "my-hpa",
           {"status": "False", "reason": "FailedGetExternalMetric", "message": "unable to get metrics"},
           {"status": "False", "reason": "FailedGetExternalMetric", "message": "HPA is not actively scaling: unable to get metrics"})
hpa_health("TestGetHPAHealth_ScalingDisabled", "my-hpa",
           {"status": "False", "reason": "ScalingDisabled", "message": DISABLED_MSG},
           {"status": "True", "reason": "ScalingDisabled", "message": DISABLED_MSG})
hpa_health("TestGetHPAHealth_NoGracePeriod", "my-hpa", {"status": "False", "reason": "FailedGetExternalMetric"},
           {"status": "False", "reason": "FailedGetExternalMetric", "message": "HPA is not actively scaling: "})
hpa_health("TestGetHPAHealth_EmptyReasonFallback", "my-hpa",
           {"status": "False", "message": "unable to compute replica count"},
           {"status": "False", "reason": "HPAMetricsUnavailable",
            "message": "HPA is not actively scaling: unable to compute replica count"})
hpa_health("TestGetHPAHealth_NoScalingActiveConditionYet", "my-hpa", None, {"status": ""},
           notes="the HPA has only AbleToScale: no ScalingActive condition, not observed (null)")
hpa_health("TestCheckHPAHealth_CannotObserve_HPAActiveUnchanged", "my-hpa", None, {"status": ""},
           notes="nothing is written, so the HPAActive condition observed before persists")

# --------------------------------------------------------------------------
# state.json: pkg/scaling/scale_handler_test.go, getScaledObjectState. The
# mocked scalers become triggers of type "mock" (not replayed); metricName is
# the name their mocked metric spec carries.
SH = "pkg/scaling/scale_handler_test.go"


def state(test, obj, triggers, expect, hpa=None, versions=BOTH, notes=None):
    v = {"id": "state-" + slug(test), "source": SH + " " + test, "versions": versions, "level": "state",
         "now": NOW, "scaledObject": obj, "results": triggers, "expect": expect}
    if hpa is not None:
        v["hpaCondition"] = hpa
    if notes:
        v["notes"] = notes
    add("state.json", v)


state("TestCheckScaledObjectScalersWithError",
      so(name="test", ns="test", target="test", triggers=[{"type": "mock", "metadata": {}}], gvkr=False, conditions=False),
      [{"metricName": "metric-name", "result": {"error": "some error"}}],
      {"isActive": False, "isError": True, "activeTriggers": []},
      notes="the test's object lists no trigger and its scalers cache one mocked scaler; the vector lists that scaler as the trigger")
state("TestCheckScaledObjectFindFirstActiveNotIgnoreOthers",
      so(name="test", ns="test", target="test", triggers=[{"type": "mock", "metadata": {}}, {"type": "mock", "metadata": {}}],
         status={"externalMetricNames": ["metric-name"]}, gvkr=False, conditions=False),
      [{"metricName": "metric-name", "result": {"value": 10, "active": True}},
       {"metricName": "metric-name", "result": {"error": "some error"}}],
      {"isActive": True, "isError": True, "activeTriggers": ["metric-name"]},
      notes="both mocked scalers report the metric 'metric-name'; the first is active (value 10), the second fails")
state("TestGetScaledObjectStateRecordsResourceScalerActiveMetric",
      so(name="resource-metric-test", ns="resource-metric-namespace", target="test",
         triggers=[{"type": "cpu", "metadata": {"value": "50"}, "metricType": "Utilization"}], gvkr=False, conditions=False),
      [{}], {"isActive": True, "isError": False, "activeTriggers": []},
      notes="the test's cpu trigger has no metadata (its scaler is mocked); the vector gives it a valid value so that it builds. The Prometheus gauge is not converted")
state("TestGetScaledObjectStateSkipsResourceScalerActiveMetricWithModifiers",
      so(name="resource-modifier-metric-test", ns="resource-modifier-metric-namespace", target="test",
         triggers=[{"type": "cpu", "name": "cpu", "metadata": {"value": "50"}, "metricType": "Utilization"}],
         advanced={"scalingModifiers": {"formula": "cpu", "target": "1"}}, gvkr=False, conditions=False),
      [{}], {"isActive": True, "isError": False, "activeTriggers": []},
      notes="as above; the formula 'cpu' names no External metric, so it yields no value and only the cpu-only rule activates the object")


def irrelevant_polling(min=1):
    return so(name="test", ns="keda", target="test", min=min, triggers=[{"type": "some-trigger", "metadata": {}}],
              status={"hpaName": "keda-hpa-test"}, gvkr=False, conditions=False)


M = "state-from-cache-metric"
state("TestGetScaledObjectState_UsesFreshHPAObservations/active observation", irrelevant_polling(),
      [{"metricName": M, "result": {"value": 10, "active": True}}],
      {"isActive": True, "isError": False, "isFallbackActive": False, "activeTriggers": [M], "source": "hpaObservation"},
      hpa={"status": "True"}, versions=V21)
state("TestGetScaledObjectState_UsesFreshHPAObservations/inactive observation", irrelevant_polling(),
      [{"metricName": M, "result": {"active": False}}],
      {"isActive": False, "isError": False, "isFallbackActive": False, "activeTriggers": [], "source": "hpaObservation"},
      hpa={"status": "True"}, versions=V21)
state("TestGetScaledObjectState_UsesFreshHPAObservations/observation with scaler error", irrelevant_polling(),
      [{"metricName": M, "result": {"error": "some error"}}],
      {"isActive": False, "isError": True, "isFallbackActive": False, "activeTriggers": [], "source": "hpaObservation"},
      hpa={"status": "True"}, versions=V21)
state("TestGetScaledObjectState_PollsWithoutUsableHPAObservation/HPA not actively scaling", irrelevant_polling(),
      [{"metricName": M, "result": {"value": 10, "active": True}}],
      {"isActive": True, "isError": False, "activeTriggers": [M], "source": "poll"},
      hpa={"status": "False"}, versions=V21)
state("TestGetScaledObjectState_PollsWithoutUsableHPAObservation/HPA cannot be read", irrelevant_polling(),
      [{"metricName": M, "result": {"value": 10, "active": True}}],
      {"isActive": True, "isError": False, "activeTriggers": [M], "source": "poll"}, versions=V21,
      notes="the HPA read fails: no hpaCondition")
state("TestGetScaledObjectState_PollsWhenPollingIsRelevant", irrelevant_polling(min=0),
      [{"metricName": M, "result": {"active": False}}],
      {"isActive": False, "isError": False, "source": "poll"}, hpa={"status": "True"}, versions=V21,
      notes="the test stores an active observation that must be ignored; the HPA is ScalingActive here so that only the polling relevance decides")
state("TestGetScaledObjectState_PushScalerUsesHPAObservation", irrelevant_polling(),
      [{"metricName": M, "result": {"value": 10, "active": True}}],
      {"isActive": True, "isError": False, "activeTriggers": [M], "source": "hpaObservation"},
      hpa={"status": "True"}, versions=V21)

# --------------------------------------------------------------------------
# fallback.json: pkg/fallback/fallback_test.go, GetMetricsWithFallback on
# metric "some_metric_name" of buildScaledObject (one cron trigger).
FB = "pkg/fallback/fallback_test.go"
FBM = "some_metric_name"


def fb_so(fallback, health=None):
    st = {}
    if health is not None:
        st["health"] = health
    return so(name="clean-up-test", ns="default", target="myapp", triggers=[cron_trigger()], fallback=fallback, status=st)


def fallback(case, obj, target, result, current, expect, notes=None):
    v = {"id": "fallback-" + slug(case), "source": FB + " TestFallback/" + case, "versions": BOTH, "level": "fallback",
         "scaledObject": obj, "metricName": FBM, "target": {"type": "AverageValue", "averageValue": str(target)},
         "result": result, "currentReplicas": current, "expect": expect}
    if notes:
        v["notes"] = notes
    add("fallback.json", v)


def h(n, status):
    return {"numberOfFailures": n, "status": status}


FB3 = {"failureThreshold": 3, "replicas": 10}
fallback("should return the expected metric when fallback is disabled", fb_so(None), 3, {"value": 5}, 0,
         {"value": 5})
fallback("should initialise the health status on success when fallback is enabled and status is empty", fb_so(FB3), 3,
         {"value": 6}, 0, {"value": 6, "health": h(0, "Happy")})
fallback("should reset the health status when scaler metrics are available when fallback is enabled",
         fb_so(FB3, {FBM: h(5, "Failing")}), 3, {"value": 6}, 0, {"value": 6, "health": h(0, "Happy")})
fallback("should not reset the health status when fallback is not enabled", fb_so(None, {FBM: h(5, "Failing")}), 3,
         {"value": 6}, 0, {"value": 6, "health": h(5, "Failing")})
fallback("should propagate the error when fallback is disabled", fb_so(None), 3, {"error": "some error"}, 0,
         {"error": "some error"})
fallback("should bump the number of failures when metrics call fails", fb_so(FB3, {FBM: h(0, "Happy")}), 10,
         {"error": "some error"}, 0, {"error": "some error", "health": h(1, "Failing")})
fallback("should return a normalised metric when number of failures are beyond threshold",
         fb_so(FB3, {FBM: h(3, "Happy")}), 10, {"error": "some error"}, 5, {"value": 100, "health": h(4, "Failing")},
         notes="no behavior set: the static value (10 replicas × target 10) though KEDA reads the current replicas (5)")
fallback("should ignore error if we fail to update kubernetes status", fb_so(FB3, {FBM: h(3, "Happy")}), 10,
         {"error": "some error"}, 5, {"value": 100, "health": h(4, "Failing")},
         notes="the failing status patch is not an input of the replay; the values are those of the previous case")
fallback("should return error when fallback is enabled but scaledobject has invalid parameter",
         fb_so({"failureThreshold": -3, "replicas": 10}, {FBM: h(3, "Happy")}), 10, {"error": "some error"}, 0,
         {"error": "some error"})
fallback("should set the fallback condition when a fallback exists in the scaled object",
         fb_so(FB3, {"another metric name": h(6, "Failing"), FBM: h(3, "Happy")}), 10, {"error": "some error"}, 5,
         {"fallbackCondition": "True"})
fallback("should set the fallback condition to false if the config is invalid",
         fb_so({"failureThreshold": -3, "replicas": 10}, {"another metric name": h(6, "Failing"), FBM: h(3, "Happy")}), 10,
         {"error": "some error"}, 0, {"error": "some error", "fallbackCondition": "False"})
fallback("should use fallback replicas when current replicas is lower when behavior is 'currentReplicasIfHigher'",
         fb_so({"failureThreshold": 3, "replicas": 10, "behavior": "currentReplicasIfHigher"}, {FBM: h(3, "Happy")}), 10,
         {"error": "some error"}, 4, {"value": 100})
fallback("should use current replicas when behavior is 'currentReplicas'",
         fb_so({"failureThreshold": 3, "replicas": 10, "behavior": "currentReplicas"}, {FBM: h(3, "Happy")}), 10,
         {"error": "some error"}, 6, {"value": 60})
fallback("should ignore current replicas when behavior is 'static'",
         fb_so({"failureThreshold": 3, "replicas": 10, "behavior": "static"}, {FBM: h(3, "Happy")}), 10,
         {"error": "some error"}, 15, {"value": 100},
         notes="upstream's comment names 15 current replicas; the static behavior never reads them")

# --------------------------------------------------------------------------
# modifiers.json: pkg/scaling/modifiers/formula_test.go and the scale
# handler's composite test.
MF = "pkg/scaling/modifiers/formula_test.go"
SMF = {"failureThreshold": 3, "replicas": 5, "behavior": "scalingModifiers"}


def trigger_value(case, fallback_cfg, health, want_nil):
    st = {}
    if health is not None:
        st["health"] = health
    v = {"id": "modifiers-trigger-value-" + slug(case), "source": MF + " TestScalingModifierTriggerValue/" + case,
         "versions": BOTH, "level": "formulaInput", "metricName": "trigger-a", "value": 7,
         "scaledObject": so(name="so", ns="", triggers=[{"type": "mock", "metadata": {}}], fallback=fallback_cfg,
                            status=st, gvkr=False, conditions=False),
         "expect": {"nil": want_nil}}
    add("modifiers.json", v)


trigger_value("no fallback configured returns the metric value", None, None, False)
trigger_value("no health status for trigger returns the metric value", SMF, {}, False)
trigger_value("failures below threshold returns the metric value", SMF, {"trigger-a": h(2, "Failing")}, False)
trigger_value("failures at threshold returns the metric value (gate is strict >)", SMF, {"trigger-a": h(3, "Failing")}, False)
trigger_value("failures one over threshold returns nil", SMF, {"trigger-a": h(4, "Failing")}, True)
trigger_value("failures exceed threshold returns nil", SMF, {"trigger-a": h(5, "Failing")}, True)
trigger_value("healthy (failures reset to 0) returns the metric value", SMF, {"trigger-a": h(0, "Happy")}, False)


def composite(test, obj, formula, inputs, expect, versions=BOTH, raw=True, notes=None, source=MF):
    v = {"id": "modifiers-" + slug(test), "source": source + " " + test, "versions": versions, "level": "composite",
         "scaledObject": obj, "inputs": inputs, "expect": expect}
    if formula is not None:
        v["formula"] = formula
        v["compile"] = "raw" if raw else "keda"
    if notes:
        v["notes"] = notes
    add("modifiers.json", v)


composite("TestCalculateScalingModifiersFormula",
          so(name="so", ns="", triggers=[{"type": "mock", "metadata": {}}], gvkr=False, conditions=False),
          "trigger1 + trigger2",
          [{"trigger": "trigger1", "metricName": "s0-metric1", "value": 2},
           {"trigger": "trigger2", "metricName": "s1-metric2", "value": 5}],
          {"milliValue": 7000}, notes="upstream compiles the formula as written (no float(...) wrapper, no environment)")
composite("TestCalculateScalingModifiersFormulaFallbackReplicas",
          so(name="so", ns="", triggers=[{"type": "mock", "metadata": {}}],
             advanced={"scalingModifiers": {"target": "2"}},
             fallback={"failureThreshold": 3, "replicas": 7, "behavior": "scalingModifiers"},
             status={"health": {"s0-trigger1": h(5, "Failing"), "s1-trigger2": h(5, "Failing")}}, gvkr=False, conditions=False),
          "trigger1 ?? trigger2",
          [{"trigger": "trigger1", "metricName": "s0-trigger1", "value": -1},
           {"trigger": "trigger2", "metricName": "s1-trigger2", "value": -1}],
          {"milliValue": 14000})
composite("TestCalculateScalingModifiersFormulaNilCompiled",
          so(name="so", ns="", triggers=[{"type": "mock", "metadata": {}}], gvkr=False, conditions=False),
          None, [], {"error": True})
composite("TestScalingModifiersFormula",
          so(name="test", ns="test", target="test",
             triggers=[{"type": "fake_trig1", "name": "trigger1", "metadata": {}},
                       {"type": "fake_trig2", "name": "trigger2", "metadata": {}}],
             advanced={"scalingModifiers": {"target": "2", "formula": "trigger1 + trigger2"}},
             status={"externalMetricNames": ["metricName1", "metricName2"]}, gvkr=False, conditions=False),
          "trigger1 + trigger2",
          [{"trigger": "trigger1", "metricName": "metricName1", "value": 2},
           {"trigger": "trigger2", "metricName": "metricName2", "value": 5}],
          {"milliValue": 7000}, raw=False, source=SH,
          notes="through GetScaledObjectMetrics: the composite-metric the HPA reads is 7; each mocked scaler returns both metrics, which map to their triggers by name as here")

# --------------------------------------------------------------------------
# object.json: apis/keda/v1alpha1/scaledobject_types_test.go and the
# executor's helper test: small rules of the ScaledObject.
TY = "apis/keda/v1alpha1/scaledobject_types_test.go"


def obj(test, check, o, expect, versions=BOTH, source=TY, notes=None):
    v = {"id": "object-" + slug(test), "source": source + " " + test, "versions": versions, "level": "object",
         "check": check, "scaledObject": o, "expect": expect}
    if notes:
        v["notes"] = notes
    add("object.json", v)


def bare(annotations=None, **spec):
    meta = {"name": "so"}
    if annotations is not None:
        meta["annotations"] = annotations
    return {"metadata": meta, "spec": dict({"triggers": []}, **spec)}


PA, PR = "autoscaling.keda.sh/paused", "autoscaling.keda.sh/paused-replicas"
for case, ann, want in [
    ("No annotations", None, False),
    ("Has PausedAnnotation only", {PA: "true"}, True),
    ("Has PausedReplicasAnnotation only", {PR: "5"}, True),
    ("Has both annotations", {PA: "true", PR: "5"}, True),
    ("Has other annotations but not paused ones", {"some-other-annotation": "value"}, False),
]:
    obj("TestHasPausedAnnotation/" + case, "hasPausedAnnotation", bare(ann), {"bool": want})
for case, ann, paused_count, want in [
    ("No annotations", None, None, False),
    ("PausedAnnotation with true value", {PA: "true"}, None, True),
    ("PausedAnnotation with false value", {PA: "false"}, None, False),
    ("PausedAnnotation with invalid value", {PA: "invalid"}, None, True),
    ("PausedReplicasAnnotation with value and status set", {PR: "5"}, 5, True),
    ("PausedReplicasAnnotation with value but no status set", {PR: "5"}, None, True),
    ("Both annotations set", {PA: "true", PR: "5"}, 5, True),
    ("Both annotations set, PausedAnnotation false", {PA: "false", PR: "5"}, 5, True),
]:
    o = bare(ann)
    if paused_count is not None:
        o["status"] = {"pausedReplicaCount": paused_count}
    obj("TestNeedToBePausedByAnnotation/" + case, "needToBePaused", o, {"bool": want})
for case, ann, want in [
    ("nil annotations returns nil", None, {"nil": True}),
    ("annotation absent returns nil", {"other-annotation": "value"}, {"nil": True}),
    ("valid integer annotation returns pointer to value", {PR: "5"}, {"int": 5}),
    ("zero value annotation returns pointer to zero", {PR: "0"}, {"int": 0}),
    ("invalid string annotation returns error", {PR: "not-a-number"}, {"error": True}),
]:
    obj("TestGetPausedReplicaCount/" + case, "pausedReplicaCount", bare(ann), want)
for case, adv, want in [
    ("No Advanced config", None, False),
    ("Empty ScalingModifiers", {"scalingModifiers": {}}, False),
    ("Has ScalingModifiers formula", {"scalingModifiers": {"formula": "x * 2"}}, True),
    ("Has ScalingModifiers target", {"scalingModifiers": {"target": "100"}}, True),
]:
    spec = {} if adv is None else {"advanced": adv}
    obj("TestIsUsingModifiers/" + case, "usesModifiers", bare(**spec), {"bool": want})
for case, mn, idle, trig, want in [
    ("minReplicaCount unset (defaults to 0)", None, None, None, True),
    ("minReplicaCount = 0 allows scale to zero", 0, None, None, True),
    ("minReplicaCount > 0, idle mode disabled, no cached metrics", 2, None, None, False),
    ("minReplicaCount > 0, idleReplicaCount = 0 enables idle mode", 2, 0, None, True),
    ("minReplicaCount > 0, idleReplicaCount > 0 enables idle mode", 2, 1, None, True),
    ("minReplicaCount > 0, no idle, a trigger uses cached metrics", 2, None,
     [{"type": "cpu", "metadata": {}}, {"type": "kafka", "useCachedMetrics": True, "metadata": {}}], True),
    ("minReplicaCount > 0, no idle, no trigger uses cached metrics", 2, None,
     [{"type": "cpu", "metadata": {}}, {"type": "kafka", "metadata": {}}], False),
]:
    spec = {}
    if mn is not None:
        spec["minReplicaCount"] = mn
    if idle is not None:
        spec["idleReplicaCount"] = idle
    if trig is not None:
        spec["triggers"] = trig
    obj("TestIsPollingIntervalRelevant/" + case, "pollingRelevant", bare(**spec), {"bool": want}, versions=V21)
for case, spec, want in [
    ("minReplicaCount > 0 without idle mode and cached metrics allows observations", {"minReplicaCount": 1}, True),
    ("minReplicaCount 0 requires polling", {"minReplicaCount": 0}, False),
    ("idle mode requires polling", {"minReplicaCount": 2, "idleReplicaCount": 1}, False),
    ("cached metrics require polling", {"minReplicaCount": 1, "triggers": [{"type": "some-trigger", "useCachedMetrics": True, "metadata": {}}]}, False),
    ("scaling modifiers require polling", {"minReplicaCount": 1, "advanced": {"scalingModifiers": {"formula": "a + b", "target": "1"}}}, False),
]:
    obj("TestUsesHPAObservations/" + case, "usesHPAObservations", bare(**spec), {"bool": want}, versions=V21)
for case, spec, want in [
    ("Valid: min 1, max 5, no idle", {"minReplicaCount": 1, "maxReplicaCount": 5}, {"error": False}),
    ("Valid: min 1, max 5, idle 0", {"minReplicaCount": 1, "maxReplicaCount": 5, "idleReplicaCount": 0}, {"error": False}),
    ("Invalid: min 2 > max 1", {"minReplicaCount": 2, "maxReplicaCount": 1},
     {"error": True, "errorContains": "MinReplicaCount=2 must be less than MaxReplicaCount=1"}),
    ("Invalid: idle 1 == min 1", {"minReplicaCount": 1, "maxReplicaCount": 5, "idleReplicaCount": 1},
     {"error": True, "errorContains": "IdleReplicaCount=1 must be less than MinReplicaCount=1"}),
    ("Invalid: idle 2 > min 1", {"minReplicaCount": 1, "maxReplicaCount": 5, "idleReplicaCount": 2},
     {"error": True, "errorContains": "IdleReplicaCount=2 must be less than MinReplicaCount=1"}),
]:
    obj("TestCheckReplicaCountBoundsAreValid/" + case, "replicaCountBounds", bare(**spec), want)
for case, mn, mx, wmin, wmax in [
    ("Default min and max", None, None, 1, 100),
    ("Custom min, default max", 5, None, 5, 100),
    ("Default min, custom max", None, 10, 1, 10),
    ("Custom min and max", 5, 10, 5, 10),
    ("Zero min, default max", 0, None, 1, 100),
]:
    spec = {}
    if mn is not None:
        spec["minReplicaCount"] = mn
    if mx is not None:
        spec["maxReplicaCount"] = mx
    obj("TestGetHPAReplicas/" + case, "hpaReplicas", bare(**spec), {"min": wmin, "max": wmax})


def fbt(t, mt=None, name=None):
    x = {"type": t, "metadata": {}}
    if mt:
        x["metricType"] = mt
    return x


F31 = {"failureThreshold": 3, "replicas": 1}
for case, spec, want in [
    ("No fallback configured", {"triggers": [fbt("couchdb")]}, {"error": False}),
    ("Explicit AverageValue metricType - valid", {"fallback": F31, "triggers": [fbt("couchdb", "AverageValue")]}, {"error": False}),
    ("Implicit AverageValue metricType (empty string) - valid", {"fallback": F31, "triggers": [fbt("couchdb")]}, {"error": False}),
    ("Value metricType - valid", {"fallback": F31, "triggers": [fbt("couchdb", "Value")]}, {"error": False}),
    ("Multiple triggers with one valid AverageValue - valid",
     {"fallback": F31, "triggers": [fbt("prometheus", "Value"), fbt("couchdb", "AverageValue")]}, {"error": False}),
    ("CPU trigger - invalid", {"fallback": F31, "triggers": [fbt("cpu", "AverageValue")]},
     {"error": True, "errorContains": "type for the fallback to be enabled"}),
    ("Memory trigger - invalid", {"fallback": F31, "triggers": [fbt("memory", "AverageValue")]},
     {"error": True, "errorContains": "type for the fallback to be enabled"}),
    ("Multiple triggers with one CPU and one valid - valid",
     {"fallback": F31, "triggers": [fbt("cpu", "Utilization"), fbt("couchdb", "AverageValue")]}, {"error": False}),
    ("Negative FailureThreshold - invalid", {"fallback": {"failureThreshold": -1, "replicas": 1}, "triggers": [fbt("couchdb", "AverageValue")]},
     {"error": True, "errorContains": "must both be greater than or equal to 0"}),
    ("Negative Replicas - invalid", {"fallback": {"failureThreshold": 3, "replicas": -1}, "triggers": [fbt("couchdb", "AverageValue")]},
     {"error": True, "errorContains": "must both be greater than or equal to 0"}),
    ("Using ScalingModifiers with AverageValue MetricType - valid",
     {"fallback": F31, "advanced": {"scalingModifiers": {"metricType": "AverageValue", "formula": "x * 2"}}, "triggers": [fbt("couchdb")]},
     {"error": False}),
    ("Using ScalingModifiers with Value MetricType - valid",
     {"fallback": F31, "advanced": {"scalingModifiers": {"metricType": "Value", "formula": "x * 2"}}, "triggers": [fbt("couchdb")]},
     {"error": False}),
]:
    obj("TestCheckFallbackValid/" + case, "fallbackValid", bare(**spec), want)
EH = "pkg/scaling/executor/scale_executor_helpers_test.go"
for case, spec, idle, rep in [
    ("nil IdleReplicaCount and nil MinReplicaCount returns false and 0", {}, False, 0),
    ("IdleReplicaCount set returns true with its value", {"idleReplicaCount": 0}, True, 0),
    ("IdleReplicaCount non-zero returns true with its value", {"idleReplicaCount": 3}, True, 3),
    ("MinReplicaCount set with nil IdleReplicaCount returns false with its value", {"minReplicaCount": 2}, False, 2),
]:
    obj("TestGetIdleOrMinimumReplicaCount/" + case, "idleOrMinimum", bare(**spec), {"idle": idle, "int": rep}, source=EH)

# --------------------------------------------------------------------------
# scalers.json: the scalers' own tests. "parse" builds the trigger (error or
# not); "metricName" checks the External metric; "activity" gives the value
# the scaler reads (from the test's setup) and checks the activity.
SC = "pkg/scalers/"


def scaler(test, file, check, ttype, metadata, expect, namespace="test", index=0, metric_type=None, value=None,
           now=None, versions=BOTH, notes=None, auth=None):
    trig = {"type": ttype, "metadata": metadata}
    if metric_type:
        trig["metricType"] = metric_type
    v = {"id": "scaler-" + slug(ttype + "-" + test), "source": SC + file + " " + test, "versions": versions,
         "level": "scaler", "check": check, "namespace": namespace, "triggerIndex": index, "trigger": trig,
         "expect": expect}
    if value is not None:
        v["value"] = value
    if now is not None:
        v["now"] = now
    if auth is not None:
        v["authParams"] = auth
    if notes:
        v["notes"] = notes
    add("scalers.json", v)


# metrics-api
MA = "metrics_api_scaler_test.go"
URL = "http://dummy:1230/api/v1/"
for i, (md, err) in enumerate([
    ({}, True),
    ({"url": URL, "valueLocation": "metric.test", "targetValue": "42"}, False),
    ({"url": URL, "valueLocation": "metric", "targetValue": "aa"}, True),
    ({"url": URL, "valueLocation": "metric", "targetValue": "1", "activationTargetValue": "aa"}, True),
    ({"url": URL, "targetValue": "aa"}, True),
    ({"valueLocation": "metric", "targetValue": "aa"}, True),
    ({"url": URL, "valueLocation": "metric"}, True),
    ({"url": URL, "valueLocation": "metric", "targetValue": "42", "timeout": "1000"}, False),
    ({"url": URL, "valueLocation": "metric", "targetValue": "42", "timeout": "-1"}, True),
    ({"url": URL, "valueLocation": "metric", "targetValue": "42", "timeout": "a"}, True),
]):
    scaler("TestParseMetricsAPIMetadata[%d]" % i, MA, "parse", "metrics-api", md, {"error": err})
AUTH_CASES = [
    ("success TLS", {"authMode": "tls"}, {"ca": "caaa", "cert": "ceert", "key": "keey"}, False, BOTH),
    ("fail TLS, ca not given", {"authMode": "tls"}, {"cert": "ceert", "key": "keey"}, False, BOTH),
    ("success apiKeyAuth default", {"authMode": "apiKey"}, {"apiKey": "apiikey"}, False, BOTH),
    ("success apiKeyAuth as query param", {"authMode": "apiKey"}, {"apiKey": "apiikey", "method": "query"}, False, BOTH),
    ("success apiKeyAuth with headers and custom key name", {"authMode": "apiKey"},
     {"apiKey": "apiikey", "method": "header", "keyParamName": "custom"}, False, BOTH),
    ("success apiKeyAuth with query param and custom key name", {"authMode": "apiKey"},
     {"apiKey": "apiikey", "method": "query", "keyParamName": "custom"}, False, BOTH),
    ("success basicAuth", {"authMode": "basic"}, {"username": "user", "password": "pass"}, False, BOTH),
    ("success bearerAuth default", {"authMode": "bearer"}, {"token": "bearerTokenValue"}, False, BOTH),
    ("success unsafeSsl true", {"unsafeSsl": "true"}, {}, False, BOTH),
    ("success unsafeSsl false", {"unsafeSsl": "false"}, {}, False, BOTH),
    ("failed unsafeSsl non bool", {"unsafeSsl": "yes"}, {}, True, BOTH),
    ("success with both apiKey and TLS authentication", {"authMode": "apiKey,tls"},
     {"apiKey": "apiikey", "ca": "caaa", "cert": "ceert", "key": "keey"}, False, BOTH),
    ("fail custom, the scaler never applies the custom header to the request", {"authMode": "custom"},
     {"customAuthHeader": "X-Custom-Auth", "customAuthValue": "customValue"}, True, V21),
    ("fail oauth, the scaler never performs the token flow", {"authMode": "oauth"},
     {"oauthTokenURI": "http://dummy:1230/oauth/token", "clientID": "clientt", "clientSecret": "secrett"}, True, V21),
    ("fail on an unsupported mode combined with a supported one", {"authMode": "apiKey,custom"},
     {"apiKey": "apiikey", "customAuthHeader": "X-Custom-Auth", "customAuthValue": "customValue"}, True, V21),
]
for case, extra, auth, err, vers in AUTH_CASES:
    md = {"url": URL, "valueLocation": "metric", "targetValue": "42"}
    md.update(extra)
    scaler("TestMetricAPIScalerAuthParams/" + case, MA, "parse", "metrics-api", md, {"error": err}, auth=auth,
           versions=vers, notes="authParams come from a TriggerAuthentication; the replay reads the trigger metadata only, and the outcome here depends on the metadata alone")
scaler("TestMetricsAPIGetMetricSpecForScaling", MA, "metricName", "metrics-api",
       {"url": URL, "valueLocation": "metric.test", "targetValue": "42"}, {"metricName": "s1-metric-api-metric-test"}, index=1)

# kubernetes-workload
KW = "kubernetes_workload_scaler_test.go"
WL = [
    ({"value": "1", "podSelector": "app=demo"}, "test", False),
    ({"value": "1", "podSelector": "app=demo"}, "default", False),
    ({"value": "1", "podSelector": "app in (demo1, demo2)"}, "test", False),
    ({"value": "1", "podSelector": "app in (demo1, demo2),deploy in (deploy1, deploy2)"}, "test", False),
    ({"value": "1", "podSelector": "app=demo", "groupByNode": "true"}, "test", False),
    ({"podSelector": "app=demo"}, "test", True),
    ({"podSelector": "app=demo"}, "default", True),
    ({"value": "1"}, "test", True),
    ({"value": "1"}, "default", True),
    ({"value": "a", "podSelector": "app=demo"}, "test", True),
    ({"value": "a", "podSelector": "app=demo"}, "default", True),
    ({"value": "0", "podSelector": "app=demo"}, "test", True),
    ({"value": "0", "podSelector": "app=demo"}, "default", True),
    ({"value": "1", "activationValue": "aa", "podSelector": "app=demo"}, "test", True),
    ({"value": "1", "podSelector": "app=demo", "groupByNode": "invalid"}, "test", True),
]
for i, (md, ns, err) in enumerate(WL):
    scaler("TestParseWorkloadMetadata[%d]" % i, KW, "parse", "kubernetes-workload", md, {"error": err}, namespace=ns)
for i, (j, pods, active) in enumerate([(0, 0, False), (0, 1, False), (0, 15, False), (1, 0, False), (1, 1, True), (1, 15, True)]):
    md, ns, _ = WL[j]
    counted = pods if ns == "default" else 0
    scaler("TestWorkloadIsActive[%d]" % i, KW, "activity", "kubernetes-workload", md, {"active": active}, namespace=ns,
           value=counted, notes="the test creates %d pods in namespace default; the scaler counts those of its own namespace (%s): %d" % (pods, ns, counted))
for j, idx, name in [(0, 0, "s0-workload-test"), (1, 1, "s1-workload-default"), (2, 2, "s2-workload-test"), (3, 3, "s3-workload-test")]:
    md, ns, _ = WL[j]
    scaler("TestWorkloadGetMetricSpecForScaling[%d]" % idx, KW, "metricName", "kubernetes-workload", md,
           {"metricName": name}, namespace=ns, index=idx)
for phase, active in [("Running", True), ("Succeeded", False), ("Failed", False), ("Unknown", True), ("Pending", True)]:
    v = {"id": "scaler-kubernetes-workload-testworkloadphase-" + phase.lower(), "source": SC + KW + " TestWorkloadPhase/" + phase,
         "versions": BOTH, "level": "workloadPods", "pods": [{"metadata": {"name": "phase-" + phase.lower(), "namespace": "default",
                                                                            "labels": {"app": "testphases"}}, "status": {"phase": phase}}],
         "groupByNode": False, "trigger": {"type": "kubernetes-workload", "metadata": {"podSelector": "app=testphases", "value": "1"}},
         "expect": {"active": active}}
    add("scalers.json", v)

GB_PODS = [
    {"metadata": {"name": "demo-pod-node-a-1"}, "spec": {"nodeName": "node-a"}, "status": {"phase": "Running"}},
    {"metadata": {"name": "demo-pod-node-a-2"}, "spec": {"nodeName": "node-a"}, "status": {"phase": "Running"}},
    {"metadata": {"name": "demo-pod-node-b"}, "spec": {"nodeName": "node-b"}, "status": {"phase": "Running"}},
    {"metadata": {"name": "demo-pod-pending"}, "status": {"phase": "Pending"}},
    {"metadata": {"name": "demo-pod-failed"}, "spec": {"nodeName": "node-c"}, "status": {"phase": "Failed"}},
]
for case, by_node, want in [("count all matching pods", False, 4), ("count unique nodes for scheduled matching pods", True, 2)]:
    md = {"podSelector": "app=demo", "value": "1"}
    if by_node:
        md["groupByNode"] = "true"
    add("scalers.json", {"id": "scaler-kubernetes-workload-testworkloadgroupbynode-" + slug(case),
                         "source": SC + KW + " TestWorkloadGroupByNode/" + case, "versions": BOTH, "level": "workloadPods",
                         "pods": GB_PODS, "groupByNode": by_node, "trigger": {"type": "kubernetes-workload", "metadata": md},
                         "expect": {"count": want}})

# cron
CR = "cron_scaler_test.go"
VC1 = {"timezone": "Etc/UTC", "start": "0 0 * * Thu", "end": "59 23 * * Thu", "desiredReplicas": "10"}
VC2 = {"timezone": "Etc/UTC", "start": "0 */2 * * *", "end": "0 1-23/2 * * *", "desiredReplicas": "10"}
VC3 = {"timezone": "Etc/UTC", "start": "0,30 * * * *", "end": "15,45 * * * *", "desiredReplicas": "10"}
for i, (md, err) in enumerate([
    ({}, True), (VC1, False), (VC2, False), (VC3, False),
    ({"timezone": "Asia/Kolkata", "start": "30 * * * *", "end": "45 * * * *"}, True),
    ({"start": "30 * * * *", "end": "45 * * * *", "desiredReplicas": "10"}, True),
    ({"timezone": "Asia/Kolkata", "start": "30-33 * * * *", "end": "45 * * * *", "desiredReplicas": "10"}, False),
    ({"timezone": "Asia/Kolkata", "start": "30 * * * *", "end": "45-50 * * * *", "desiredReplicas": "10"}, False),
    ({"timezone": "Asia/Kolkata", "start": "-30 * * * *", "end": "45 * * * *", "desiredReplicas": "10"}, True),
    ({"timezone": "Asia/Kolkata", "start": "30 * * * *", "end": "-50 * * * *", "desiredReplicas": "10"}, True),
    ({"timezone": "Asia/Kolkata", "start": "30 * * * *", "end": "50 * * -3 *", "desiredReplicas": "10"}, True),
    ({"timezone": "Asia/Kolkata", "start": "30 * * * *", "end": "30 * * * *", "desiredReplicas": "10"}, True),
]):
    scaler("TestCronParseMetadata[%d]" % i, CR, "parse", "cron", md, {"error": err})
for md, idx, name in [(VC1, 0, "s0-cron-Etc-UTC-00xxThu-5923xxThu"), (VC2, 1, "s1-cron-Etc-UTC-0xSl2xxx-01-23Sl2xxx"),
                      (VC3, 2, "s2-cron-Etc-UTC-0Cm30xxxx-15Cm45xxxx")]:
    scaler("TestCronGetMetricSpecForScaling[%d]" % idx, CR, "metricName", "cron", md, {"metricName": name}, index=idx)
# The activity tests compare against the day (Thursday) or the hour parity
# at the moment they run; the vectors fix that moment.
for now, thursday in [("2025-01-02T10:30:00Z", True), ("2025-01-03T10:30:00Z", False)]:
    tag = "thursday" if thursday else "friday"
    scaler("TestIsActive/" + tag, CR, "activity", "cron", VC1, {"active": thursday}, now=now,
           notes="upstream expects active exactly when the test runs on a Thursday (Etc/UTC); %s is a %s" % (now, tag.capitalize()))
    scaler("TestGetMetrics/" + tag, CR, "activity", "cron", VC1, {"value": 10 if thursday else 0}, now=now,
           notes="upstream expects 10 on a Thursday and 0 otherwise")
for now, even in [("2025-01-02T10:30:00Z", True), ("2025-01-02T11:30:00Z", False)]:
    tag = "even-hour" if even else "odd-hour"
    scaler("TestIsActiveRange/" + tag, CR, "activity", "cron", VC2, {"active": even}, now=now,
           notes="upstream expects active exactly when the test runs in an even hour (Etc/UTC)")
    scaler("TestGetMetricsRange/" + tag, CR, "activity", "cron", VC2, {"value": 10 if even else 0}, now=now,
           notes="upstream expects 10 in an even hour and 0 otherwise")

# cpu / memory
CM = "cpu_memory_scaler_test.go"
for i, (mt, md, err) in enumerate([
    ("", {}, True), ("Utilization", {"value": "50"}, False), ("AverageValue", {"value": "50"}, False),
    ("Value", {"value": "50"}, True), ("", {"value": ""}, True), ("", {}, True),
]):
    scaler("TestCPUMemoryParseMetadata[%d]" % i, CM, "parse", "cpu", md, {"error": err}, metric_type=mt or None)
scaler("TestGetMetricSpecForScaling", CM, "resourceSpec", "cpu", {"value": "50"},
       {"type": "Resource", "resource": "cpu", "targetType": "Utilization"}, metric_type="Utilization")
scaler("TestGetContainerMetricSpecForScaling", CM, "resourceSpec", "cpu", {"value": "50", "containerName": "foo"},
       {"type": "ContainerResource", "resource": "cpu", "targetType": "Utilization", "container": "foo"}, metric_type="Utilization")

# kubernetes-resource
KR = "kubernetes_resource_scaler_test.go"
for i, (md, err) in enumerate([
    ({"resourceKind": "ConfigMap", "resourceName": "my-config", "key": "threshold", "targetValue": "10"}, False),
    ({"resourceKind": "Secret", "resourceName": "my-secret", "key": "threshold", "targetValue": "10"}, False),
    ({"resourceKind": "ConfigMap", "resourceName": "my-config", "key": "data", "valueLocation": "metrics.threshold",
      "targetValue": "10", "activationTargetValue": "5", "format": "json", "valueType": "float64"}, False),
    ({"resourceName": "my-config", "key": "threshold", "targetValue": "10"}, True),
    ({"resourceKind": "ConfigMap", "key": "threshold", "targetValue": "10"}, True),
    ({"resourceKind": "ConfigMap", "resourceName": "my-config", "targetValue": "10"}, True),
    ({"resourceKind": "ConfigMap", "resourceName": "my-config", "key": "threshold"}, True),
    ({"resourceKind": "Pod", "resourceName": "my-pod", "key": "threshold", "targetValue": "10"}, True),
    ({"resourceKind": "ConfigMap", "resourceName": "my-config", "key": "threshold", "targetValue": "10", "format": "xml"}, True),
    ({"resourceKind": "ConfigMap", "resourceName": "my-config", "key": "threshold", "targetValue": "10", "valueType": "string"}, True),
    ({"resourceKind": "ConfigMap", "resourceName": "my-config", "key": "threshold", "targetValue": "10", "format": "number",
      "valueLocation": "some.path"}, True),
]):
    scaler("TestParseKubernetesResourceMetadata[%d]" % i, KR, "parse", "kubernetes-resource", md, {"error": err})
for i, (md, active, value) in enumerate([
    ({"resourceKind": "ConfigMap", "resourceName": "my-config", "key": "threshold", "targetValue": "10", "activationTargetValue": "5"}, False, 3),
    ({"resourceKind": "ConfigMap", "resourceName": "my-config", "key": "threshold", "targetValue": "10", "activationTargetValue": "5"}, True, 8),
    ({"resourceKind": "ConfigMap", "resourceName": "my-config", "key": "data", "valueLocation": "metrics.threshold", "targetValue": "10", "format": "json"}, True, 15),
    ({"resourceKind": "ConfigMap", "resourceName": "my-config", "key": "data", "valueLocation": "metrics.threshold", "targetValue": "10", "format": "yaml"}, True, 20),
    ({"resourceKind": "ConfigMap", "resourceName": "my-config", "key": "threshold", "targetValue": "10", "valueType": "quantity"}, True, 0.5),
    ({"resourceKind": "ConfigMap", "resourceName": "my-config", "key": "threshold", "targetValue": "10", "valueType": "int64"}, True, 42),
    ({"resourceKind": "Secret", "resourceName": "my-secret", "key": "threshold", "targetValue": "10"}, True, 25),
    ({"resourceKind": "Secret", "resourceName": "my-secret", "key": "data", "valueLocation": "limit", "targetValue": "100", "format": "json"}, True, 150),
]):
    scaler("TestKubernetesResourceIsActive[%d]" % i, KR, "activity", "kubernetes-resource", md,
           {"active": active, "value": value}, value=value,
           notes="the value is the test's expectedValue (what the scaler reads from the ConfigMap or Secret)")
for md, idx, name in [
    ({"resourceKind": "ConfigMap", "resourceName": "my-config", "key": "threshold", "targetValue": "10"}, 0, "s0-configmap-my-config-threshold"),
    ({"resourceKind": "Secret", "resourceName": "my-secret", "key": "limit", "targetValue": "100"}, 1, "s1-secret-my-secret-limit"),
    ({"resourceKind": "ConfigMap", "resourceName": "scaling-config", "key": "queue_length", "targetValue": "50"}, 2,
     "s2-configmap-scaling-config-queue_length"),
]:
    scaler("TestKubernetesResourceGetMetricSpecForScaling[%d]" % idx, KR, "metricName", "kubernetes-resource", md,
           {"metricName": name}, index=idx)

# --------------------------------------------------------------------------
# quantity.json: pkg/scalers/scaler_test.go, how KEDA writes floats and
# target types.
ST = "pkg/scalers/scaler_test.go"
for case, mt, want_err, want in [
    ("utilization metric type", "Utilization", True, ""),
    ("average value metric type", "AverageValue", False, "AverageValue"),
    ("value metric type", "Value", False, "Value"),
    ("no metric type", "", False, "AverageValue"),
]:
    add("quantity.json", {"id": "target-type-" + slug(case), "source": ST + " TestGetMetricTargetType/" + case,
                          "versions": BOTH, "level": "targetType", "metricType": mt,
                          "expect": {"error": want_err, "type": want}})
for test in ("TestGetMetricTargetMili", "TestGenerateMetricInMili"):
    vals = [("small value", "100.5" if test == "TestGetMetricTargetMili" else "42.5"), ("large value", "1e18"),
            ("value just above int64 milli overflow threshold", "9.3e15"), ("NaN treated as zero", "NaN"),
            ("positive Inf treated as zero", "+Inf"), ("negative value treated as zero", "-1"),
            ("large negative value treated as zero", "-9.3e15")]
    for case, val in vals:
        zero = val in ("NaN", "+Inf", "-1", "-9.3e15")
        add("quantity.json", {"id": "quantity-" + slug(test + "-" + case), "source": ST + " " + test + "/" + case,
                              "versions": BOTH, "level": "quantity", "value": val,
                              "expect": {"zero": zero, "positive": not zero}})

# --------------------------------------------------------------------------
# controller.json: controllers/keda (hpa_test.go, scaledobject_controller_test.go
# on envtest): the HPA KEDA writes, the reconcile's checks, the pause.
CT = "controllers/keda/scaledobject_controller_test.go"
HT = "controllers/keda/hpa_test.go"


def controller(test, o, expect, source=CT, versions=BOTH, notes=None):
    v = {"id": "controller-" + slug(test), "source": source + " " + test, "versions": versions, "level": "controller",
         "now": NOW, "scaledObject": o, "expect": expect}
    if notes:
        v["notes"] = notes
    add("controller.json", v)


def cso(name, target, annotations=None, **kw):
    return so(name=name, ns="default", target=target, annotations=annotations, gvkr=False, conditions=False, **kw)


controller("cleans up a deleted trigger from the HPA (two triggers)",
           cso("clean-up-test", "clean-up", triggers=[
               {"type": "cron", "metadata": CRON_UTC},
               {"type": "cron", "metadata": {"timezone": "UTC", "start": "2 * * * *", "end": "3 * * * *", "desiredReplicas": "2"}}]),
           {"hpaName": "keda-hpa-clean-up-test", "metricNames": ["s0-cron-UTC-0xxxx-1xxxx", "s1-cron-UTC-2xxxx-3xxxx"]})
controller("cleans up a deleted trigger from the HPA (after the update)",
           cso("clean-up-test", "clean-up", triggers=[{"type": "cron", "metadata": CRON_UTC}]),
           {"hpaName": "keda-hpa-clean-up-test", "metricNames": ["s0-cron-UTC-0xxxx-1xxxx"]})
controller("cleans up old hpa when hpa name is updated (before)",
           cso("so-hpa-name", "hpa-name", triggers=[cron_trigger()], advanced={"horizontalPodAutoscalerConfig": {}}),
           {"hpaName": "keda-hpa-so-hpa-name"}, notes="the test's names are built from a variable; any name shows the rule")
controller("cleans up old hpa when hpa name is updated (after)",
           cso("so-hpa-name", "hpa-name", triggers=[cron_trigger()],
               advanced={"horizontalPodAutoscalerConfig": {"name": "new-so-hpa-name"}}),
           {"hpaName": "new-so-hpa-name"})
controller("deploys ScaledObject and creates HPA, when IdleReplicaCount, MinReplicaCount and MaxReplicaCount is defined",
           cso("so-idleminmax", "idleminmax", idle=1, min=5, max=10, triggers=[cron_trigger()]),
           {"hpaName": "keda-hpa-so-idleminmax", "minReplicas": 5, "maxReplicas": 10, "ready": "True"})
ANN = {"annotation-email": "email@example.com", "annotation-url": "https://example.com"}
controller("deploys ScaledObject and creates HPA, when metadata.Annotations is configured",
           cso("so-annotations", "annotations", annotations=ANN, triggers=[cron_trigger()]),
           {"hpaName": "keda-hpa-so-annotations", "annotations": ANN})
PSI, PSO = "autoscaling.keda.sh/paused-scale-in", "autoscaling.keda.sh/paused-scale-out"
controller("deploys ScaledObject and creates HPA with scale down select policy disabled when pause scale-in annotation set",
           cso("so-disable-scale-in", "disable-scale-in", annotations={PSI: "true"}, triggers=[cron_trigger()]),
           {"scaleDownSelectPolicy": "Disabled", "paused": "True"})
controller("sets scale down select policy to disable when annotation added to existing object (before)",
           cso("so-disable-scale-in-old-so", "disable-scale-in-old-so", annotations={}, min=1, max=10,
               triggers=[{"type": "cron", "metadata": dict(CRON_UTC, desiredReplicas="2")}]),
           {"behaviorNil": True, "paused": "False"})
controller("sets scale down select policy to disable when annotation added to existing object (after)",
           cso("so-disable-scale-in-old-so", "disable-scale-in-old-so", annotations={PSI: "true"}, min=1, max=10,
               triggers=[{"type": "cron", "metadata": dict(CRON_UTC, desiredReplicas="2")}]),
           {"scaleDownSelectPolicy": "Disabled", "paused": "True"})
MINPOL = {"horizontalPodAutoscalerConfig": {"behavior": {"scaleDown": {"selectPolicy": "Min"}}}}
controller("sets scale down select policy to original policy when annotation removed (before)",
           cso("so-remove-scale-in-disabled-annotation", "remove-scale-in-disabled-annotation", annotations={PSI: "true"},
               min=1, max=10, triggers=[{"type": "cron", "metadata": dict(CRON_UTC, desiredReplicas="2")}], advanced=MINPOL),
           {"scaleDownSelectPolicy": "Disabled", "paused": "True"})
controller("sets scale down select policy to original policy when annotation removed (after)",
           cso("so-remove-scale-in-disabled-annotation", "remove-scale-in-disabled-annotation", annotations={},
               min=1, max=10, triggers=[{"type": "cron", "metadata": dict(CRON_UTC, desiredReplicas="2")}], advanced=MINPOL),
           {"scaleDownSelectPolicy": "Min", "paused": "False"})
UPPOL = {"horizontalPodAutoscalerConfig": {"behavior": {"scaleUp": {
    "stabilizationWindowSeconds": 60, "selectPolicy": "Max", "policies": [{"type": "Pods", "value": 5, "periodSeconds": 30}]}}}}
controller("removes scale down disabled policy when annotation removed without custom scaledown behavior (before)",
           cso("so-remove-scale-in-no-custom-scaledown", "remove-scale-in-no-custom-scaledown",
               annotations={PSI: "true", "some-other-annotation": "some-value"}, min=1, max=10,
               triggers=[{"type": "cron", "metadata": dict(CRON_UTC, desiredReplicas="2")}], advanced=UPPOL),
           {"scaleDownSelectPolicy": "Disabled", "scaleUpSelectPolicy": "Max", "scaleUpStabilizationWindowSeconds": 60,
            "scaleUpPolicyPeriods": [30], "paused": "True"})
controller("removes scale down disabled policy when annotation removed without custom scaledown behavior (after)",
           cso("so-remove-scale-in-no-custom-scaledown", "remove-scale-in-no-custom-scaledown",
               annotations={"some-other-annotation": "some-value"}, min=1, max=10,
               triggers=[{"type": "cron", "metadata": dict(CRON_UTC, desiredReplicas="2")}], advanced=UPPOL),
           {"scaleDownNotDisabled": True, "scaleUpSelectPolicy": "Max", "scaleUpStabilizationWindowSeconds": 60,
            "scaleUpPolicyPeriods": [30], "paused": "False"})
controller("deploys ScaledObject and creates HPA with scale up select policy disabled when pause scale-out annotation set",
           cso("so-disable-scale-out", "disable-scale-out", annotations={PSO: "true"}, triggers=[cron_trigger()]),
           {"scaleUpSelectPolicy": "Disabled", "paused": "True"})
controller("sets scale up select policy to disable when annotation added to existing object (after)",
           cso("so-disable-scale-out-old-so", "disable-scale-out-old-so", annotations={PSO: "true"}, min=1, max=10,
               triggers=[{"type": "cron", "metadata": dict(CRON_UTC, desiredReplicas="2")}]),
           {"scaleUpSelectPolicy": "Disabled", "paused": "True"})
MINUP = {"horizontalPodAutoscalerConfig": {"behavior": {"scaleUp": {"selectPolicy": "Min"}}}}
controller("sets scale up select policy to original policy when annotation removed (after)",
           cso("so-remove-scale-out-disabled-annotation", "remove-scale-out-disabled-annotation", annotations={},
               min=1, max=10, triggers=[{"type": "cron", "metadata": dict(CRON_UTC, desiredReplicas="2")}], advanced=MINUP),
           {"scaleUpSelectPolicy": "Min", "pausedIn": ["False", "Unknown"]})
controller("doesn't allow MinReplicaCount > MaxReplicaCount",
           cso("so-minmax", "minmax", min=10, max=5, triggers=[cron_trigger()]),
           {"invalid": True, "invalidField": "spec"}, notes="rejected by the CRD's CEL rule at the API server")
controller("create scaledobject with empty triggers should be blocked",
           cso("so-block-deleted", "block-deleted", min=1, max=5, polling=1, triggers=[],
               advanced={"horizontalPodAutoscalerConfig": {}}),
           {"invalid": True, "invalidField": "spec.triggers"}, notes="rejected by the CRD's minItems at the API server")
controller("doesn't allow IdleReplicaCount > MinReplicaCount",
           cso("so-idlemin", "idlemin", idle=10, min=5, triggers=[cron_trigger()]), {"ready": "False"})
controller("doesn't allow IdleReplicaCount > MaxReplicaCount, when MinReplicaCount is not explicitly defined",
           cso("so-idlemax", "idlemax", idle=10, max=5, triggers=[cron_trigger()]), {"ready": "False"})
controller("doesn't allow non-unique triggerName in ScaledObject",
           cso("so-non-unique-triggername", "non-unique-triggername", idle=10, min=5,
               triggers=[cron_trigger(name="non-unique"), cron_trigger(name="non-unique")]), {"ready": "False"},
           notes="upstream's object also has idle 10 ≥ min 5, which fails first; Ready is False either way")
controller("scaledobject paused condition status changes to true on annotation (before)",
           cso("toggled-to-paused-annotation-name", "toggled-to-paused-annotation-name", triggers=[cron_trigger()]),
           {"ready": "True", "paused": "False"})
controller("scaledobject paused condition status changes to true on annotation (after)",
           cso("toggled-to-paused-annotation-name", "toggled-to-paused-annotation-name", annotations={PR: "1"},
               triggers=[cron_trigger()]), {"paused": "True"})
controller("scaledObject paused status switches to false when annotation is set to false (paused)",
           cso("toggled-to-paused-annotation-false-name", "toggled-to-paused-annotation-false-name", annotations={PA: "true"},
               triggers=[cron_trigger()]), {"paused": "True"})
controller("scaledObject paused status switches to false when annotation is set to false (false)",
           cso("toggled-to-paused-annotation-false-name", "toggled-to-paused-annotation-false-name", annotations={PA: "false"},
               triggers=[cron_trigger()], status={"conditions": [{"type": "Paused", "status": "True", "reason": "ScaledObjectPaused"}]}),
           {"paused": "False"}, notes="the object was paused before (status Paused True)")
controller("deletes hpa when scaledobject has pause annotation",
           cso("to-be-paused-name", "to-be-paused-name", annotations={PR: "1"}, triggers=[cron_trigger()]),
           {"hpaDeleted": True, "paused": "True"})
controller("should remove deleted metric from health status",
           so(name="some scaled object name", ns="", target="t", triggers=[{"type": "mock", "metadata": {}}],
              status={"health": {"another metric name": h(87, "Failing")}, "externalMetricNames": ["s0-some metric name"]},
              gvkr=False, conditions=False),
           {"health": {}}, source=HT,
           notes="the mocked scaler's metric is 'some metric name'; the vector names it s0-some metric name, as every real scaler prefixes its index")
controller("should not remove existing metric from health status",
           so(name="some scaled object name", ns="", target="t", triggers=[{"type": "mock", "metadata": {}}],
              status={"health": {"another metric name": h(87, "Failing"), "s0-some metric name": h(87, "Failing")},
                      "externalMetricNames": ["s0-some metric name"]},
              gvkr=False, conditions=False),
           {"health": {"s0-some metric name": h(87, "Failing")}}, source=HT, notes="as above")

for f, vs in vectors.items():
    ids = [v["id"] for v in vs]
    dup = {i for i in ids if ids.count(i) > 1}
    assert not dup, (f, dup)
    with open(os.path.join(OUT, f), "w") as fh:
        json.dump(vs, fh, indent=1, ensure_ascii=False, sort_keys=False)
        fh.write("\n")
    print("%-18s %d" % (f, len(vs)))
print("total", sum(len(v) for v in vectors.values()))
