"""The rule classifier of clarifying questions (English and Chinese): no model, deterministic, fast.

Every cue is a regular expression with a weight (3 decisive, 2 strong, 1 weak); a question gets the
type whose matched cues weigh most, ties going to the type listed first in ``PRIORITY``. A question
that matches no cue is ``other`` (it asks about something no cue names); a statement with no cue, or
with weak cues only, asks nothing (``none``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from cts_dataset.diagnostics.types import QuestionType

NAME = "rules/v1"

# Ties: the constraint types the data removes first, the conversational types last.
PRIORITY: tuple[QuestionType, ...] = ("definition", "time", "region", "number", "entity", "scope", "other",
                                      "format", "preference", "none")

_EN: dict[QuestionType, list[tuple[int, str]]] = {
    "time": [
        (3, r"\b(which|what) (year|decade|century|era|period|season|month|date|dynasty|edition)s?\b"),
        (2, (r"\b(years?|decades?|century|centuries|era|eras|periods?|time ?frame|time ?span|timeline|dates?|seasons?|months?"
             r"|dynasty|dynasties|edition)\b")),
        (2, (r"\bwhen\b|\bas of\b|\b(recent|recently|latest|current|currently|nowadays|today|historical|historically"
             r"|modern[- ]day|contemporary)\b|\bin the past\b|\bup to now\b|\bbefore or after\b|\bthese days\b")),
        (2, r"\b(1[0-9]|20)\d\ds?\b|\b\d{1,2}(st|nd|rd|th) century\b|\bancient times\b|\bmedieval\b"),
        (2, (r"\bduring\b|\bup[- ]to[- ]date\b|\bmost recent\b|\b(newest|oldest|earliest|back then)\b"
             r"|\b(years|decades) (back|ago)\b|\b(cold war|world war|middle ages|renaissance|ice age)\b")),
        (3, (r"\bfar back\b|\bback in time\b|\bpresent[- ]day\b|\bat present\b|\bbefore (or after )?(the|it|them|that)\b"
             r"|\bafter (the|it|them|that)\b")),
        (1, (r"\b(earlier|later|past|time|ago|since|until|older|newer|history|war|now|then|present|census|before"
             r"|after)\b")),
    ],
    "region": [
        (3, (r"\b(which|what) (country|countries|nation|city|cities|town|region|continent|state|province|place"
             r"|location|area of the world|part of the world|area of the globe|part of the globe)\b")),
        (2, (r"\b(country|countries|nation|nations|nation's|city|cities|town|towns|village|regions?|regional"
             r"|continent|continents|province|provinces|states? or province|location|located|locations|places?"
             r"|geograph\w*|part of the world|abroad|domestic|overseas|national park|territory|county|district"
             r"|worldwide|globally|internationally|locally|globe)\b")),
        (2, r"\bwhere\b|\bsomewhere\b|\belsewhere\b"),
        (2, (r"\b(asia|asian|europe|european|africa|african|america|americas|american|oceania|antarctica|arctic"
             r"|northern|southern|eastern|western|coast|coastal|island|islands|hemisphere|middle east|uk|usa|us|eu"
             r"|china|india|japan|france|germany|russia|brazil|canada|australia|mexico|spain|italy|egypt)\b")),
        (1, r"\b(area|local|national|international|global|north|south|east|west)\b"),
    ],
    "number": [
        (3, r"\bhow (many|much|old|big|large|tall|high|deep|heavy|far|wide)\b"),
        (3, r"\b(minimum|maximum) (number|count|amount|size|height|length|age)\b|\bexact number\b"),
        (2, (r"\b(number|numbers|count|amount|quantity|quantities|threshold|figure|figures|rank|ranking|ranked"
             r"|position|minimum|maximum|at least|at most|more than|fewer than|less than|size|percentage"
             r"|how often)\b")),
        (2, (r"\btop (\d+|two|three|four|five|six|seven|eight|nine|ten|twenty)\b|\b\d+(st|nd|rd|th)\b"
             r"|\b(second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\b|\bsingle\b")),
        (3, r"\b(above|below|over|under|beyond) (what|which|how)\b(?! (time|period|span|years|dates|timeframe)\b)"),
        (2, r"\b(temperature|degrees|kilomet(re|er)s?|km|miles|met(re|er)s?|percent|tons?|tonnes|kg|population of)\b|%"),
        (1, (r"\b(largest|biggest|smallest|longest|highest|most|numerous|several|dozens?|millions?|thousands?"
             r"|hundreds?|once|twice|times|height)\b")),
    ],
    "entity": [
        (3, (r"\b(which|what) (specific |particular )?(person|people|individual|company|companies|firm|team|club"
             r"|organi[sz]ation|institution|band|artist|singer|player|athlete|author|writer|book|novel|film"
             r"|movie|song|album|game|product|brand|model|politician|leader|president|king|queen|scientist"
             r"|university|school|ship|building|one|composer|painter|poet|director|actor|emperor)\b")),
        (2, r"\bwho\b|\bwhom\b|\bwhose\b|\bname of\b|\bnamed\b|\bcalled\b|\bof the same name\b|\bwith that name\b"),
        (2, (r"\b(person|company|team|organi[sz]ation|institution|band|artist|product|brand|film|movie|book|novel"
             r"|singer|footballer|politician|planet|god|goddess|element|character|scientist|writer|author|player"
             r"|actor|actress|director|painter|poet|composer|emperor|president|king|queen)\b")),
        (2, r"\bwhich of the (two|three|\w+s)\b|\b(brother|sister|son|daughter|father|mother|wife|husband)s?\b"),
        (1, r"\brefer(ring)? to\b|\btalking about\b|\blook up\b|\bin mind\b"),
    ],
    "definition": [
        (3, (r"\bmean by\b|\bmeant by\b|\bmeaning of\b|\bdefin\w*\b|\bsense of the\b"
             r"|\bwhich sense\b|\bwhat sense\b|\bwhat does ['\"‘“]?[\w -]+['\"’”]? (mean|refer to)\b")),
        (3, (r"\bcounts? as\b|\bin (its|the) \w+ (sense|meaning)\b|\b(\w+) sense or the\b"
             r"|\bby ['\"‘“][^'\"’”]+['\"’”],? do you mean\b|\bas \w+s (use|understand) it\b"
             r"|\b(use|using|mean) the (term|word)\b|\bthe (term|word) ['\"‘“]")),
        (3, r"\bwhen you say\b|\bby the (term|word)\b"),
        (2, (r"\b(meaning|meanings|sense|term|terms|concept|word|technical|everyday|jargon"
             r"|interpretation|interpret|connotation)\b|\bwhat do you mean\b|\bin this context\b")),
        (1, r"\b(field|context|meant|refer to|understand|discipline)\b|['\"‘“][\w -]+['\"’”]"),
    ],
    "scope": [
        (3, (r"\b(which|what) (kind|kinds|type|types|sort|sorts|category|categories|variety|varieties|aspect"
             r"|aspects|branch|subset|subfield|group|class|genre|form|style of|discipline of)\b")),
        (3, r"\bwhat (specific |particular )?(information|info)\b|\bfacets?\b"),
        (3, (r"\bby what (measure|metric|criterion|criteria|standard)\b|\b(largest|biggest|smallest|most) by\b"
             r"|\b(ranked|sorted|measured|compared|ordered|judged) by\b|\bin terms of\b"
             r"|\bby (revenue|area|population|volume|size|length|height|sales|gdp|weight|output|capacity)\b"
             r"|\ball (of )?(the )?[\w ]+,? or (just|only)\b|\b(one|a|which) (discipline|branch|part|aspect) of\b")),
        (2, (r"\b(kind|kinds|type|types|sort|category|categories|variety|aspect|aspects|subset|subgroup"
             r"|subcategory|branch|overview|in general|general|broad|narrow|narrow down|specific part|whole"
             r"|measure|metric|criteria|criterion|genus|family|species|class|sub-?type|only|professional"
             r"|amateurs?|indoor|outdoor|cover|include|includes|including|all of|every)\b")),
        (1, r"\b(specifically|particular|part|certain|focus|just)\b"),
    ],
    "other": [
        (3, (r"\b(language|languages|tongue|nationality|nationalities|gender|genders|material|materials|made of"
             r"|made from|written in|spoken in|speaking|children|kids|adults|audience|alive|living|deceased"
             r"|recogni[sz]ed|officially|technique|medium|ethnicity|religion|carved|sculpted|built from)\b")),
        (3, (r"\b(any|other|further|additional|extra) (conditions?|constraints?|requirements?|restrictions?"
             r"|criteria|details|specifics)\b|\banything else (specific|about|i should)\b")),
        (3, r"\b(female|male)\b"),
        (3, r"\bmore (specific|details?|information|context)\b|\belaborate\b|\bclarify (your|what you)\b"),
        (2, r"\b(women|men|non-\w+|restriction|constraint|requirement|condition|used for|use it for)\b"),
        (2, (r"\b(marble|stone|wooden|wood|bronze|clay|granite|steel|iron|plastic|cotton|silk|french|english"
             r"|spanish|german|chinese|japanese|latin|arabic|russian|italian|portuguese)\b")),
    ],
    "format": [
        (3, (r"\b(list|bullet|bullets|bulleted|table|tables|paragraph|paragraphs|format|citations?|links?"
             r"|step[- ]by[- ]step|outline|summary|summari[sz]e|word count|cite|one-sentence|sentences?|numbered)\b")),
        (3, (r"\bhow (detailed|long should (the|your|my|it)|short|brief|in-depth)\b|\bkeep it (short|brief)\b"
             r"|\b(brief|short|one-line) (explanation|description|answer)s?\b|\bfor each\b")),
        (3, r"\b(quick|short|long|brief|detailed) (answer|reply|version)\b|\bin[- ]depth\b|\bhigh[- ]level\b"),
        (2, (r"\b(detailed|details|detail|short|brief|briefly|concise|length|explanation|explain each|sources"
             r"|references|examples? for each|full explanation|overview of each|respond|response|reply)\b")),
    ],
    "preference": [
        (3, (r"\b(purpose|purposes|goal|goals|aim|motive|motivation|reason)\b|\bwhy\b|\bwhat for\b|\bneed (this|it) for\b"
             r"|\buse (this|it|the information|this information) for\b|\bplan to use\b|\bhelp you (do|decide)\b")),
        (3, (r"\bprefer\b|\bpreference\b|\bpreferred\b|\bschool project\b|\bcuriosity\b|\bhoping to\b"
             r"|\btrying to\b|\bcontext of your question\b|\bdo with (this|it|the)\b|\bcurious\b|\brather\b"
             r"|\bpersonal\b|\bfor your (job|work|studies|class)\b")),
        (2, r"\b(interest|interested|research|work|study|travel|decision|useful|like best|favou?rite)\b"),
    ],
    "none": [
        (3, r"^(hello|hi|hey|thanks|thank you|great question|got it|ok(ay)?|sure|alright|sorry|sounds good)\b"),
        (3, (r"\b(shall|should|can|may) i (go ahead|start|begin|search|proceed|help)\b|\bdo you want me to\b"
             r"|\blet me\b|\bi('ll| will) (search|look|start|begin|get)\b|\bstill there\b|\brepeat that\b"
             r"|\bis that (all|everything)\b|\bsomething else\b|^anything else\b|\banything else\?$"
             r"|\banything (else|more) i can\b|\b(can|could) i do for you\b|\bi can help\b"
             r"|\bwould you like me to (begin|start|proceed|go ahead|search)\b")),
    ],
}

_ZH: dict[QuestionType, list[tuple[int, str]]] = {
    "time": [
        (3, r"哪一?年|哪一?届|哪个时期|哪个年代|什么时候|何时|哪个朝代|哪个世纪|哪个季度|哪个月"),
        (2, (r"之前|之后|以后|那段|哪段|年份|年代|时期|时间|最近|近期|近年|近几年|几年前|年前|年间|那时|当时|历史上|朝代|世纪|当前|现在|目前"
             r"|如今|以前|过去|季度|月份|日期|期间|\d{4}年")),
    ],
    "region": [
        (3, r"哪个国家|哪国|哪个城市|哪个地区|哪个省|哪个州|哪里|哪儿|什么地方|哪个地方|哪个洲"),
        (2, (r"国家|城市|地区|省份|国内|国外|海外|地方|地点|位置|区域|大洲|全球|本地|当地|在哪|亚洲|欧洲|非洲|美洲"
             r"|大洋洲|南极|中国|美国|日本|英国|法国|德国|俄罗斯|印度|南方|北方|沿海")),
    ],
    "number": [
        # 好几 says "several" ("分好几个奖项，您想了解哪一类？"): it asks no number
        (3, r"第[一二三四五六七八九十\d]+(大|长|高|多|名|位)|多少|(?<!好)几[个次种名]|第几|前[一二三四五六七八九十\d]+名?|数量|排名|数值"),
        (2, r"数字|至少|最多|规模|名次|次数|超过|不少于|大小"),
        (1, r"多大|多长|多高|多深|(?<!好)几"),
    ],
    "entity": [
        (3, (r"哪一?位|是谁|哪一?家|哪一?部|哪支|哪个人|哪个机构|哪个组织|哪个品牌|哪款|叫什么"
             r"|哪个(球员|演员|人物|作家|作者|歌手|科学家|公司|品牌|球队|乐队|导演|画家|诗人|总统|皇帝|国王)")),
        (2, (r"银行|大学|学校|医院|谁|人物|公司|球队|机构|组织|品牌|产品|名字|名称|作品|作者|歌手|演员|乐队|科学家|球员|作家|总统|皇帝"
             r"|国王|导演|画家|诗人|艺术家|运动员")),
    ],
    "definition": [
        (3, r"什么意思|含义|定义|术语|哪种意思|指的是什么|怎么理解|如何理解|概念"),
        (2, r"意思|学科|词义|算作|算是|这个词|这里的|“[^”]+”"),
        (1, r"领域|角度|理解"),
    ],
    "scope": [
        (3, r"依据|哪个方面|哪方面|哪一?类|哪一?种|哪些方面|类别|种类|类型|范围|细分|什么标准|按什么"),
        (2, r"方面|全部|所有|只要|包括|整体|部分|总体|标准|具体哪|分支|只看|也包括"),
    ],
    "other": [
        (3, (r"语言|材料|材质|性别|国籍|儿童|成人|孩子|年级|民族|宗教|在世|官方|承认|风格|工艺|中文|英文|法文|日文|德文"
             r"|俄文|西班牙文|用\w{1,3}(文|语)写|石头|木头|大理石|青铜")),
        (3, r"其他.{0,6}(条件|要求|限制)|(条件|要求|限制)吗"),
        (3, r"更具体|具体一点|具体说明|详细说明|您的需求|你的需求|更多(的)?(细节|信息|背景)|补充"),
        (2, r"条件|限制|要求|男性|女性|用来"),
    ],
    "format": [
        (3, r"列表|段落|格式|形式|表格|链接|步骤|字数|篇幅|要点|摘要|总结"),
        (3, r"简洁|多详细|详细程度|简短|简要|简单说|详细|概括|几句话|一句话"),
        (2, r"参考|来源|长度|回答方式"),
    ],
    "preference": [
        (3, (r"为了什么|倾向|用来做什么|拿来做什么|做什么用|目的|为什么|为何|用途|用于|更喜欢|偏好|希望通过|解决什么问题|出于|打算"
             r"|想要做什么|动机")),
        (2, r"学习还是工作|兴趣|研究|旅行|喜欢"),
    ],
    "none": [
        (3, (r"^(你好|您好|谢谢|好的|明白|收到|嗯)|可以帮你|帮您|开始搜索|开始了吗|还有别的|还有其他问题|这就去|去查"
             r"|需要我做什么|还需要我")),
        (2, r"开始"),
    ],
}


@lru_cache(maxsize=1)
def _compiled() -> list[tuple[QuestionType, int, re.Pattern[str]]]:
    found = []
    for table in (_EN, _ZH):
        for kind, cues in table.items():
            found += [(kind, weight, re.compile(pattern)) for weight, pattern in cues]
    return found


def scores(question: str) -> dict[QuestionType, int]:
    """The summed weight of the cues each type matches (types with no cue left out)."""
    text = " ".join(question.strip().lower().split())
    total: dict[QuestionType, int] = {}
    for kind, weight, pattern in _compiled():
        if pattern.search(text):
            total[kind] = total.get(kind, 0) + weight
    return total


def classify(question: str) -> QuestionType:
    """The type of one question."""
    found = scores(question)
    if not found:
        # A question no cue explains still asks about something: an unlisted constraint, not nothing.
        return "other" if re.search(r"[?？]\s*$", question) else "none"
    best = max(found.values())
    if best < 2 and not re.search(r"[?？]", question):
        return "none"  # a statement with only weak cues asks nothing
    return next(kind for kind in PRIORITY if found.get(kind) == best)


def classify_all(questions: Iterable[str]) -> list[QuestionType]:
    return [classify(q) for q in questions]


class RuleClassifier:
    """The default classifier (the batch interface the LLM classifier shares)."""

    name = NAME

    def classify(self, questions: Sequence[str]) -> list[QuestionType]:
        return classify_all(questions)
