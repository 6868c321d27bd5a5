"""The rules of The Battle for Greyport, split by mechanic: functions over the model (``model.GreyportModel``;
the shared helpers in ``core``, which the content's effects call too), registered by action class
(``dispatch.RULES``), rule-step op (``tasks.TASKS``) and frame kind (``frames.LEGAL``)."""
