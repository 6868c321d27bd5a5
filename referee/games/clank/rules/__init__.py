"""Clank! rules, one module per mechanic: functions over ``model.ClankModel``, registered by action class
(``dispatch.RULES``) and frame kind (``decisions``)."""
