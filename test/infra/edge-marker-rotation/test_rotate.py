"""
The edge marker's rotation function (infra/edge-marker-rotation/rotate.py) against moto's Secrets Manager, WAF and
CloudFront, step by step as Secrets Manager calls it. Run by test/infra/edge-marker-rotation.test.ts.
"""
import importlib.util
import os
import re
import time
import types
import unittest
import uuid
from pathlib import Path

import boto3
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.secretsmanager.models import secretsmanager_backends

HEADER = "x-svc-edge"
ROTATE = Path(__file__).resolve().parents[3] / "infra" / "edge-marker-rotation" / "rotate.py"
INITIAL = "InitialMarker0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO"
STEPS = ["createSecret", "setSecret", "testSecret", "finishSecret"]


def distribution_config(reference, marker):
    origin = {
        "Id": "api",
        "DomainName": "abc123.execute-api.eu-west-1.amazonaws.com",
        "OriginPath": "/dev",
        "CustomHeaders": {"Quantity": 1, "Items": [{"HeaderName": HEADER, "HeaderValue": marker}]},
        "CustomOriginConfig": {"HTTPPort": 80, "HTTPSPort": 443, "OriginProtocolPolicy": "https-only"},
    }
    return {
        "CallerReference": reference,
        "Comment": reference,
        "Enabled": True,
        "Origins": {"Quantity": 1, "Items": [origin]},
        "DefaultCacheBehavior": {"TargetOriginId": "api", "ViewerProtocolPolicy": "https-only", "MinTTL": 0},
    }


@mock_aws
class EdgeMarkerRotation(unittest.TestCase):
    def setUp(self):
        os.environ.update(AWS_DEFAULT_REGION="eu-west-1", AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing")
        boto3.setup_default_session()
        self.secrets = boto3.client("secretsmanager")
        self.waf = boto3.client("wafv2")
        self.cloudfront = boto3.client("cloudfront")
        self.arn = self.secrets.create_secret(Name="edge-marker", SecretString=INITIAL)["ARN"]
        self.pattern_set = self.waf.create_regex_pattern_set(
            Name="svc-payments-dev-edge-marker", Scope="REGIONAL", RegularExpressionList=[{"RegexString": INITIAL}]
        )["Summary"]
        self.distributions = [
            self.cloudfront.create_distribution(DistributionConfig=distribution_config(site, INITIAL))["Distribution"]["Id"]
            for site in ("checkout", "dashboard")
        ]
        os.environ.update(
            EDGE_MARKER_HEADER=HEADER,
            DISTRIBUTION_IDS=",".join(self.distributions),
            PATTERN_SET_ID=self.pattern_set["Id"],
            PATTERN_SET_NAME=self.pattern_set["Name"],
            WAF_PROPAGATION_SECONDS="0",
        )
        spec = importlib.util.spec_from_file_location("rotate", ROTATE)
        self.rotate = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.rotate)
        # The AWS operations the function calls, in order.
        self.calls = []

        def recording_client(service):
            client = boto3.client(service)
            client.meta.events.register("before-call.*.*", lambda model, **_: self.calls.append(model.name))
            return client

        self.rotate.boto3 = types.SimpleNamespace(client=recording_client)

    def start_rotation(self):
        """
        What Secrets Manager does before calling the function: a version staged AWSPENDING, without a value yet. As
        moto's RotateSecret does it before invoking a rotation function (which moto would run only in Docker).
        """
        token = str(uuid.uuid4())
        secret = secretsmanager_backends[DEFAULT_ACCOUNT_ID]["eu-west-1"].secrets[self.arn]
        secret.remove_version_stages_from_old_versions(["AWSPENDING"])
        secret.versions[token] = {"createdate": int(time.time()), "version_id": token, "version_stages": ["AWSPENDING"]}
        return token

    def step(self, token, step):
        self.rotate.handler({"SecretId": self.arn, "ClientRequestToken": token, "Step": step}, None)

    def rotation(self):
        token = self.start_rotation()
        for step in STEPS:
            self.step(token, step)
        return self.current()

    def current(self):
        # By its stage: moto's answer without one stays the first version's after a rotation.
        return self.secrets.get_secret_value(SecretId=self.arn, VersionStage="AWSCURRENT")["SecretString"]

    def accepted(self):
        found = self.waf.get_regex_pattern_set(Name=self.pattern_set["Name"], Scope="REGIONAL", Id=self.pattern_set["Id"])
        return sorted(r["RegexString"] for r in found["RegexPatternSet"]["RegularExpressionList"])

    def sent(self):
        return [
            [h["HeaderValue"] for o in c["Origins"]["Items"] for h in o["CustomHeaders"]["Items"] if h["HeaderName"] == HEADER]
            for c in (self.cloudfront.get_distribution_config(Id=d)["DistributionConfig"] for d in self.distributions)
        ]

    def test_a_rotation_gives_both_ends_a_new_random_value_the_waf_first(self):
        new = self.rotation()

        self.assertRegex(new, r"^[A-Za-z0-9]{64}$")
        self.assertNotEqual(new, INITIAL)
        self.assertEqual(self.sent(), [[new], [new]])
        # The value before stays accepted: edges reached late by CloudFront's change still send it.
        self.assertEqual(self.accepted(), sorted([INITIAL, new]))
        writes = [c for c in self.calls if c in ("UpdateRegexPatternSet", "UpdateDistribution")]
        self.assertEqual(writes, ["UpdateRegexPatternSet", "UpdateDistribution", "UpdateDistribution"])

    def test_the_next_rotation_stops_accepting_the_value_before_the_last(self):
        second = self.rotation()
        third = self.rotation()

        self.assertEqual(self.accepted(), sorted([second, third]))
        self.assertNotIn(INITIAL, self.accepted())
        self.assertEqual(self.sent(), [[third], [third]])

    def test_retried_steps_change_nothing_twice(self):
        token = self.start_rotation()
        self.step(token, "createSecret")
        pending = self.secrets.get_secret_value(SecretId=self.arn, VersionId=token, VersionStage="AWSPENDING")["SecretString"]
        self.step(token, "createSecret")
        self.step(token, "setSecret")
        self.step(token, "setSecret")

        self.assertEqual(self.secrets.get_secret_value(SecretId=self.arn, VersionId=token, VersionStage="AWSPENDING")["SecretString"], pending)
        self.assertEqual(self.calls.count("UpdateRegexPatternSet"), 1)
        self.assertEqual(self.calls.count("UpdateDistribution"), 2)
        self.assertEqual(self.current(), INITIAL)

    def test_a_distribution_that_does_not_send_the_new_value_fails_the_test_step_and_the_current_value_stays(self):
        token = self.start_rotation()
        self.step(token, "createSecret")
        self.step(token, "setSecret")
        # A deploy (or a hand) put the distribution back meanwhile.
        answer = self.cloudfront.get_distribution_config(Id=self.distributions[1])
        self.cloudfront.update_distribution(Id=self.distributions[1], IfMatch=answer["ETag"], DistributionConfig=distribution_config("dashboard", INITIAL))

        with self.assertRaisesRegex(ValueError, re.escape(f"Distribution {self.distributions[1]} does not send the new edge marker.")):
            self.step(token, "testSecret")
        self.assertEqual(self.current(), INITIAL)


if __name__ == "__main__":
    unittest.main()
