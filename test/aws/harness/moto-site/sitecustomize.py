"""
Loaded by moto_server through PYTHONPATH (test/aws/harness/moto.ts): one correction of the stand-in, as
docs/aws-harness.md says. Cognito signs a user in by any of the pool's AliasAttributes (the dashboard's pool: email)
and names the real user name in a challenge's parameters (USER_ID_FOR_SRP); moto finds users by user name only.
Here AdminInitiateAuth resolves a verified alias to its user name first, as Cognito does; nothing else changes.
"""
from moto.cognitoidp.models import CognitoIdpBackend

_admin_initiate_auth = CognitoIdpBackend.admin_initiate_auth


def _user_name_of_alias(pool, name):
    if not name or name in pool.users:
        return name
    aliases = pool.extended_config.get("AliasAttributes") or []
    for user in pool.users.values():
        attributes = {a["Name"]: a["Value"] for a in user.attributes}
        for alias in aliases:
            # Cognito takes an email or phone alias only once it is verified.
            if attributes.get(f"{alias}_verified") == "true" and str(attributes.get(alias, "")).lower() == name.lower():
                return user.username
    return name


def admin_initiate_auth(self, user_pool_id, client_id, auth_flow, auth_parameters):
    pool = self.describe_user_pool(user_pool_id)
    parameters = dict(auth_parameters or {})
    parameters["USERNAME"] = _user_name_of_alias(pool, parameters.get("USERNAME"))
    answer = _admin_initiate_auth(self, user_pool_id, client_id, auth_flow, parameters)
    if answer and answer.get("ChallengeName"):
        answer["ChallengeParameters"] = {**answer.get("ChallengeParameters", {}), "USER_ID_FOR_SRP": parameters["USERNAME"]}
    return answer


CognitoIdpBackend.admin_initiate_auth = admin_initiate_auth
