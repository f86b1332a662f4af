"""The camouflage ruleset's refusal codes (docs/api.md lists them)."""

BAD_DEPLOYMENT = "bad_deployment"  # every camouflaged piece once, on the table
EQUIPMENT_TAKES_NO_ORDERS = "equipment_takes_no_orders"
NOT_IN_PLAY = "not_in_play"  # a trooper that is down
MARKER_NOT_DISCOVERED = "marker_not_discovered"  # INF-R09: Discover it first
CONTACT_WITH_MARKER = "contact_with_marker"  # INF-R09
NOT_A_MARKER = "not_a_marker"  # Discover names a marker
DISCOVER_LOCKED = "discover_locked"  # INF-R10
ARO_AGAINST_MARKER = "aro_against_marker"  # INF-R11
NOTHING_TO_DELAY = "nothing_to_delay"  # INF-R12: only against a Camouflaged trooper
ARO_LOST = "aro_lost"  # INF-R12: the second half did not reveal it
ARO_NOT_DELAYED = "aro_not_delayed"  # INF-R12, N3 FAQ: a delay is declared explicitly
NOT_THE_SECOND_SKILL = "not_the_second_skill"  # no line of fire "during the first skill"
ARO_GIVEN = "aro_given"  # one ARO per trooper per Order
NEEDS_TARGET = "needs_target"
LONG_SKILL_ALONE = "long_skill_alone"  # a Long Skill is the whole Order
NO_CAMOUFLAGE = "no_camouflage"  # INF-R02: only a trooper with the skill, out of the state
SEEN_BY_ENEMY = "seen_by_enemy"  # INF-R02: outside every enemy LoF
IN_SENSOR_ZONE = "in_sensor_zone"  # §5.1: not inside an enemy Sensor's Zone of Control
NOT_AN_ARO = "not_an_aro"
OUT_OF_RANGE = "out_of_range"
NOT_ON_ROUTE = "not_on_route"
NOT_AN_ATTACK = "not_an_attack"  # INF-A07: only an Attack with a Template catches markers
NO_SENSOR = "no_sensor"  # only a trooper with Sensor declares it
NO_LINE_OF_SIGHT = "no_line_of_sight"  # the players at the table entered none
TOO_FEW_DICE = "too_few_dice"  # typed in some of the side's own dice of a roll, not all
CAMOUFLAGED_IN_FIRETEAM = "camouflaged_in_fireteam"  # INF-R08
