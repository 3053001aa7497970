"""
Secrets Manager's rotation function for the edge marker (infra/constructs/edge-marker.ts's secret): the value our
CloudFront sites send the API in X-Svc-Edge, and the WAF's proof that a request came through our edge.

Python, for boto3 in Lambda's runtime: CloudFront's and WAF's clients are not among the project's npm packages.
The order keeps both ends in step (docs/runbook.md, "The edge marker"):
  createSecret  a new random value, staged AWSPENDING;
  setSecret     the WAF first accepts the current and the new value, then (once WAF has propagated) every
                distribution sends the new one;
  testSecret    both read back;
  finishSecret  the new value becomes AWSCURRENT. The WAF keeps accepting the one before until the next rotation,
                since CloudFront takes minutes to reach every edge.
Each step may be retried by Secrets Manager and is idempotent.
"""
import os
import time

import boto3

HEADER = os.environ["EDGE_MARKER_HEADER"]
DISTRIBUTION_IDS = [d for d in os.environ["DISTRIBUTION_IDS"].split(",") if d]
PATTERN_SET_ID = os.environ["PATTERN_SET_ID"]
PATTERN_SET_NAME = os.environ["PATTERN_SET_NAME"]
# How long a change to the regional WAF takes to reach every node before CloudFront may send the new value.
WAF_PROPAGATION_SECONDS = int(os.environ.get("WAF_PROPAGATION_SECONDS", "90"))
VALUE_LENGTH = 64


def handler(event, _context):
    secrets = boto3.client("secretsmanager")
    arn, token, step = event["SecretId"], event["ClientRequestToken"], event["Step"]
    stages = secrets.describe_secret(SecretId=arn)["VersionIdsToStages"]
    if token not in stages:
        raise ValueError(f"Version {token} of {arn} is not being rotated.")
    if "AWSCURRENT" in stages[token]:
        return
    if "AWSPENDING" not in stages[token]:
        raise ValueError(f"Version {token} of {arn} is not AWSPENDING.")
    steps = {"createSecret": create, "setSecret": set_on_edge, "testSecret": test, "finishSecret": finish}
    if step not in steps:
        raise ValueError(f"Unknown rotation step {step}.")
    steps[step](secrets, arn, token)


def value(secrets, arn, **version):
    return secrets.get_secret_value(SecretId=arn, **version)["SecretString"]


def create(secrets, arn, token):
    try:
        value(secrets, arn, VersionId=token, VersionStage="AWSPENDING")
    except secrets.exceptions.ResourceNotFoundException:
        # Letters and digits only: the value is a WAF regular expression that must match itself, and a header value.
        new = secrets.get_random_password(PasswordLength=VALUE_LENGTH, ExcludePunctuation=True, IncludeSpace=False)["RandomPassword"]
        secrets.put_secret_value(SecretId=arn, ClientRequestToken=token, SecretString=new, VersionStages=["AWSPENDING"])


def set_on_edge(secrets, arn, token):
    current = value(secrets, arn, VersionStage="AWSCURRENT")
    pending = value(secrets, arn, VersionId=token, VersionStage="AWSPENDING")
    if set(accepted()) != {current, pending}:
        accept([current, pending])
    cloudfront = boto3.client("cloudfront")
    waited = False
    for distribution_id in DISTRIBUTION_IDS:
        answer = cloudfront.get_distribution_config(Id=distribution_id)
        config = answer["DistributionConfig"]
        if set(sent_by(config)) == {pending}:
            continue
        # Also on a retry: the WAF may have changed just before the attempt that failed.
        if not waited:
            time.sleep(WAF_PROPAGATION_SECONDS)
            waited = True
        for header in marker_headers(config):
            header["HeaderValue"] = pending
        cloudfront.update_distribution(Id=distribution_id, IfMatch=answer["ETag"], DistributionConfig=config)


def test(secrets, arn, token):
    pending = value(secrets, arn, VersionId=token, VersionStage="AWSPENDING")
    if pending not in accepted():
        raise ValueError("The WAF does not accept the new edge marker.")
    cloudfront = boto3.client("cloudfront")
    for distribution_id in DISTRIBUTION_IDS:
        sent = sent_by(cloudfront.get_distribution_config(Id=distribution_id)["DistributionConfig"])
        if not sent or set(sent) != {pending}:
            raise ValueError(f"Distribution {distribution_id} does not send the new edge marker.")


def finish(secrets, arn, token):
    stages = secrets.describe_secret(SecretId=arn)["VersionIdsToStages"]
    current = next(version for version, names in stages.items() if "AWSCURRENT" in names)
    secrets.update_secret_version_stage(SecretId=arn, VersionStage="AWSCURRENT", MoveToVersionId=token, RemoveFromVersionId=current)


def waf():
    return boto3.client("wafv2")


def accepted():
    pattern_set = waf().get_regex_pattern_set(Name=PATTERN_SET_NAME, Scope="REGIONAL", Id=PATTERN_SET_ID)["RegexPatternSet"]
    return [r["RegexString"] for r in pattern_set["RegularExpressionList"]]


def accept(values):
    client = waf()
    lock = client.get_regex_pattern_set(Name=PATTERN_SET_NAME, Scope="REGIONAL", Id=PATTERN_SET_ID)["LockToken"]
    client.update_regex_pattern_set(
        Name=PATTERN_SET_NAME, Scope="REGIONAL", Id=PATTERN_SET_ID, LockToken=lock, RegularExpressionList=[{"RegexString": v} for v in values]
    )


def marker_headers(config):
    return [
        header
        for origin in config["Origins"].get("Items", [])
        for header in origin.get("CustomHeaders", {}).get("Items", [])
        if header["HeaderName"].lower() == HEADER
    ]


def sent_by(config):
    return [header["HeaderValue"] for header in marker_headers(config)]
