"""The rules of The Battle for Greyport, split by mechanic: functions over the state (``core.CoreMixin``: the
verbs the content's effects call too), registered by action class (``dispatch.RULES``), rule-step op
(``tasks.TASKS``) and frame kind (``frames.LEGAL``)."""
